import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';
import { refreshQueries } from './refresh-queries';

/** A list whose first fetch the server answered before a change, delivered after it. */
async function listAnsweredBeforeAChange(
  refresh: (client: ReturnType<typeof createQueryClient>) => Promise<void>,
) {
  const client = createQueryClient();
  let rows = ['leaving user'];
  let answerFirst: (value: string[]) => void = () => {};
  let calls = 0;
  const observer = new QueryObserver<string[]>(client, {
    queryKey: ['admin', 'users', 'leaving'],
    queryFn: () => {
      calls += 1;
      if (calls === 1) return new Promise<string[]>((resolve) => (answerFirst = resolve));
      return Promise.resolve([...rows]);
    },
  });
  const unsubscribe = observer.subscribe(() => {});
  const before = [...rows];
  rows = [];
  const refreshed = refresh(client);
  answerFirst(before);
  await refreshed;
  unsubscribe();
  return observer.getCurrentResult().data;
}

describe('refreshQueries', () => {
  it('shows what the server holds after the change, not a first fetch answered before it', async () => {
    expect(await listAnsweredBeforeAChange((client) => refreshQueries(client, ['admin', 'users']))).toEqual(
      [],
    );
  });

  it('is needed: invalidating alone keeps the first fetch, answered before the change', async () => {
    expect(
      await listAnsweredBeforeAChange((client) => client.invalidateQueries({ queryKey: ['admin', 'users'] })),
    ).toEqual(['leaving user']);
  });
});
