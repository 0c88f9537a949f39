import { describe, expect, it } from 'vitest';
import { type BackgroundJob, InvalidJobError, type JobRunners, runBackgroundJob } from './jobs';

describe('runBackgroundJob', () => {
  it('runs an export job with the export runner, with the ids it names', async () => {
    const ran: BackgroundJob[] = [];
    const runners: JobRunners = {
      export: async (job) => {
        ran.push(job);
      },
      'delete-account': async () => {
        throw new Error('not this one');
      },
    };

    const job = await runBackgroundJob(runners, { kind: 'export', userId: 'user-1', exportId: 'exp-1' });

    expect(ran).toEqual([{ kind: 'export', userId: 'user-1', exportId: 'exp-1' }]);
    expect(job).toEqual(ran[0]);
  });

  it('runs a delete-account job with its runner, keeping only the fields of its kind', async () => {
    const ran: BackgroundJob[] = [];
    await runBackgroundJob(
      { 'delete-account': async (job) => void ran.push(job) },
      { kind: 'delete-account', userId: 'user-2', exportId: 'ignored' },
    );
    expect(ran).toEqual([{ kind: 'delete-account', userId: 'user-2' }]);
  });

  it('runs a share-pages job (rewrite every share page), which names no user', async () => {
    const ran: BackgroundJob[] = [];
    await runBackgroundJob(
      { 'share-pages': async (job) => void ran.push(job) },
      { kind: 'share-pages', userId: 'x' },
    );
    expect(ran).toEqual([{ kind: 'share-pages' }]);
  });

  it('runs a pricing-page job (the pricing page follows the plans), which names no user', async () => {
    const ran: BackgroundJob[] = [];
    await runBackgroundJob({ 'pricing-page': async (job) => void ran.push(job) }, { kind: 'pricing-page' });
    expect(ran).toEqual([{ kind: 'pricing-page' }]);
  });

  it('keeps what a delete-account request says of the subscription it cancelled (the mail tells it)', async () => {
    const ran: BackgroundJob[] = [];
    const run = (event: unknown) =>
      runBackgroundJob({ 'delete-account': async (job) => void ran.push(job) }, event);

    await run({ kind: 'delete-account', userId: 'user-2', subscriptionCancelled: true });
    await run({ kind: 'delete-account', userId: 'user-3', subscriptionCancelled: 'yes' });

    expect(ran).toEqual([
      { kind: 'delete-account', userId: 'user-2', subscriptionCancelled: true },
      { kind: 'delete-account', userId: 'user-3' },
    ]);
  });

  it('fails a kind that has no runner in this build', async () => {
    await expect(runBackgroundJob({}, { kind: 'delete-account', userId: 'user-1' })).rejects.toBeInstanceOf(
      InvalidJobError,
    );
  });

  it('fails the runner’s failure, so the invocation is retried', async () => {
    await expect(
      runBackgroundJob(
        {
          export: async () => {
            throw new Error('storage down');
          },
        },
        { kind: 'export', userId: 'user-1', exportId: 'exp-1' },
      ),
    ).rejects.toThrow('storage down');
  });

  it.each([
    ['not an object', 'export'],
    ['an array', []],
    ['an unknown kind', { kind: 'format-disk', userId: 'user-1' }],
    ['no user', { kind: 'export', exportId: 'exp-1' }],
    ['a user id that is no id', { kind: 'export', userId: '../x', exportId: 'exp-1' }],
    ['an export without its id', { kind: 'export', userId: 'user-1' }],
    ['an over-long id', { kind: 'export', userId: 'u'.repeat(129), exportId: 'exp-1' }],
  ])('refuses %s before any runner runs', async (_what, event) => {
    let ran = false;
    const runners: JobRunners = {
      export: async () => {
        ran = true;
      },
      'delete-account': async () => {
        ran = true;
      },
    };
    await expect(runBackgroundJob(runners, event)).rejects.toBeInstanceOf(InvalidJobError);
    expect(ran).toBe(false);
  });
});
