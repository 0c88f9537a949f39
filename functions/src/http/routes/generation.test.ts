import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { User } from '../../domain/accounts/user';
import { aPlan, aUser } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../../testing/in-memory-generations';
import type { RouteContext } from '../group-handler';
import { generationRoutes } from './generation';

function setup(options: { failStart?: boolean } = {}) {
  let n = 0;
  const counted: string[] = [];
  const started: string[] = [];
  const routes = generationRoutes({
    generations: {
      generations: inMemoryGenerationStore([]),
      quota: inMemoryQuota(),
      clock: fakeClock('2026-11-18T12:00:00.000Z'),
      newId: () => `gen-${++n}`,
    },
    plans: inMemoryPlans([aPlan()]),
    workflow: {
      async start(id) {
        if (options.failStart) throw new Error('no workflow');
        started.push(id);
      },
    },
    uploads: {} as never,
    provider: { writeLyrics: async () => '' },
    metrics: { count: (name) => counted.push(name) },
  });
  const user = aUser({ planStatus: 'free' }) as User;
  const generate = (body: unknown) =>
    routes.generateTextToMusic?.(
      {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      } as unknown as APIGatewayProxyEventV2,
      { user, cookies: [] } as unknown as RouteContext,
    );
  return { generate, counted, started };
}

describe('generation routes', () => {
  it('count a generation as started once its workflow runs', async () => {
    const { generate, counted, started } = setup();
    const res = await generate({ tags: 'pop, upbeat' });
    expect(res?.statusCode).toBe(201);
    expect(started).toHaveLength(1);
    expect(counted).toEqual(['GenerationsStarted']);
  });

  it('count nothing for a generation that did not start', async () => {
    const { generate, counted } = setup({ failStart: true });
    await expect(generate({ tags: 'pop, upbeat' })).rejects.toBeDefined();
    expect(counted).toEqual([]);
  });
});
