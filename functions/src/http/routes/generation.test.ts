import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { User } from '../../domain/accounts/user';
import { DomainError } from '../../domain/errors';
import { aGeneration, aPlan, aUser } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../../testing/in-memory-generations';
import { inMemoryModelSettings } from '../../testing/in-memory-models';
import type { RouteContext } from '../group-handler';
import { generationRoutes } from './generation';

function setup(options: { failStart?: boolean } = {}) {
  let n = 0;
  const counted: string[] = [];
  const started: string[] = [];
  const user = aUser({ planStatus: 'free' }) as User;
  const store = inMemoryGenerationStore([
    aGeneration({ id: 'mine', userId: user.id, audioUrl: 's3://tracks/tracks/mine.wav', duration: 30 }),
  ]);
  const routes = generationRoutes({
    audioLinks: async (stored) =>
      stored ? `https://cdn.example/${stored.slice('s3://'.length)}?signed` : null,
    generations: {
      generations: store,
      quota: inMemoryQuota(),
      clock: fakeClock('2026-11-18T12:00:00.000Z'),
      newId: () => `gen-${++n}`,
    },
    plans: inMemoryPlans([aPlan()]),
    siteOrigin: 'https://tunesmith.test',
    workflow: {
      async start(id) {
        if (options.failStart) throw new Error('no workflow');
        started.push(id);
      },
    },
    uploads: {} as never,
    provider: { writeLyrics: async () => '' },
    metrics: { count: (name) => counted.push(name) },
    modelSettings: inMemoryModelSettings(),
  });
  const generate = (body: unknown) =>
    routes.generateTextToMusic?.(
      {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      } as unknown as APIGatewayProxyEventV2,
      { user, cookies: [] } as unknown as RouteContext,
    );
  const studio = (
    route: 'createVariation' | 'extendGeneration' | 'repaintGeneration',
    id: string,
    body: unknown,
  ) =>
    routes[route]?.(
      {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      } as unknown as APIGatewayProxyEventV2,
      { user, cookies: [], params: { id } } as unknown as RouteContext,
    );
  return { generate, studio, counted, started, store };
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

describe('studio routes', () => {
  it('answer 201 with the new track and its id, launched and counted as started', async () => {
    const { studio, counted, started } = setup();

    const res = await studio('extendGeneration', 'mine', { seconds: 10 });

    expect(res?.statusCode).toBe(201);
    const body = JSON.parse(String(res?.body));
    expect(body.generationId).toBe(started[0]);
    expect(body.track).toMatchObject({
      id: body.generationId,
      status: 'pending',
      duration: 40,
      parentId: 'mine',
      edit: { kind: 'extend', seconds: 10, at: 'end' },
      audioUrl: null,
    });
    expect(body.track).not.toHaveProperty('userId');
    expect(counted).toEqual(['GenerationsStarted']);
  });

  it('serve variation and repaint from their own bodies', async () => {
    const { studio } = setup();

    const variation = JSON.parse(String((await studio('createVariation', 'mine', {}))?.body));
    const repaint = JSON.parse(
      String((await studio('repaintGeneration', 'mine', { start: 2, end: 8 }))?.body),
    );

    expect(variation.track.edit).toEqual({ kind: 'variation' });
    expect(repaint.track.edit).toEqual({ kind: 'repaint', start: 2, end: 8, variance: 0.5 });
  });

  it('refuse a bad body with its message before anything is reserved, and count nothing', async () => {
    const { studio, counted, started } = setup();

    const error = await (
      studio('repaintGeneration', 'mine', { start: 5, end: 5.5 }) as Promise<unknown>
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).message).toBe('The section must be at least 1 second long.');
    expect(started).toEqual([]);
    expect(counted).toEqual([]);
  });

  it("answer 404 for a track that is not the caller's, whatever the body", async () => {
    const { studio } = setup();

    const error = await (studio('extendGeneration', 'someone-elses', {}) as Promise<unknown>).catch(
      (e: unknown) => e,
    );

    expect((error as DomainError).kind).toBe('not-found');
  });
});
