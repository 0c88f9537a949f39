import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  ASL_SUBSTITUTIONS,
  placeholderArns,
  readGenerationAsl,
  substituteAsl,
  substitutionsIn,
} from './definition';

type Validator = (
  definition: unknown,
  options?: { checkArn?: boolean; checkPaths?: boolean },
) => { isValid: boolean; errors: unknown[]; errorsText: (sep?: string) => string };
const validator = createRequire(import.meta.url)('asl-validator') as Validator;

describe('generation.asl.json', () => {
  const text = readGenerationAsl();

  it('uses exactly the known substitution names', () => {
    expect(substitutionsIn(text)).toEqual([...ASL_SUBSTITUTIONS].sort());
  });

  it('is valid ASL once the ARNs are bound (asl-validator, ARNs and paths checked)', () => {
    const result = validator(substituteAsl(text, placeholderArns()), { checkArn: true, checkPaths: true });
    expect(result.errors).toEqual([]);
    expect(result.isValid).toBe(true);
    // The validator does catch a broken file.
    const broken = substituteAsl(
      text.replace('"Next": "FinishKind"', '"Next": "Nowhere"'),
      placeholderArns(),
    );
    expect(validator(broken, { checkArn: true, checkPaths: true }).isValid).toBe(false);
  });

  it('uses JSONPath only, waits for a task token with a timeout and routes every failure to MarkFailed', () => {
    const asl = JSON.parse(text) as {
      QueryLanguage?: string;
      States: Record<
        string,
        {
          Type: string;
          Resource?: string;
          TimeoutSeconds?: number;
          TimeoutSecondsPath?: string;
          Choices?: { Variable: string; BooleanEquals?: boolean; StringEquals?: string; Next: string }[];
          Parameters?: Record<string, unknown>;
          Default?: string;
          Retry?: { ErrorEquals: string[] }[];
          Catch?: { ErrorEquals: string[]; Next: string }[];
          Next?: string;
        }
      >;
    };
    expect(asl.QueryLanguage ?? 'JSONPath').toBe('JSONPath');
    const wait = asl.States.WaitForCallback;
    expect(wait?.Resource).toBe('arn:aws:states:::lambda:invoke.waitForTaskToken');
    // The wait scales with the requested duration (Submit puts it on the job).
    expect(wait?.TimeoutSecondsPath).toBe('$.job.waitSeconds');
    expect(wait?.Catch?.[0]).toMatchObject({ ErrorEquals: ['States.Timeout'], Next: 'PollOnce' });
    // MarkFailed cannot be skipped: if it fails after its retries the execution fails, which the rule on failed executions sees.
    expect(asl.States.MarkFailed?.Catch?.[0]).toMatchObject({
      ErrorEquals: ['States.ALL'],
      Next: 'MarkFailedFailed',
    });
    expect(asl.States.MarkFailedFailed?.Type).toBe('Fail');
    for (const name of ['Submit', 'WaitForCallback', 'PollOnce', 'Finish']) {
      const retried = asl.States[name]?.Retry?.flatMap((r) => r.ErrorEquals) ?? [];
      expect(retried).toEqual(
        expect.arrayContaining([
          'Lambda.ClientExecutionTimeoutException',
          'Lambda.Unknown',
          'Lambda.ServiceException',
        ]),
      );
    }
    // A job still queued or running after a wait is waited for again, not failed.
    expect(asl.States.PollOnce?.Next).toBe('AfterPoll');
    expect(asl.States.AfterPoll).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.job.done', BooleanEquals: true, Next: 'FinishKind' }],
      Default: 'WaitForCallback',
    });
    // A separation (decision 044) finishes in a state of its own; a generation as before.
    expect(asl.States.WaitForCallback?.Next).toBe('FinishKind');
    expect(asl.States.FinishKind).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.job.kind', StringEquals: 'stems', Next: 'FinishStems' }],
      Default: 'Finish',
    });
    // Submit and MarkFailed see the execution's input: whether it separates a track, and which set.
    for (const name of ['Submit', 'MarkFailed', 'FinishStems'])
      expect(asl.States[name]?.Parameters, name).toMatchObject({ 'execution.$': '$$.Execution.Input' });
    for (const name of ['Submit', 'WaitForCallback', 'PollOnce', 'Finish', 'FinishStems']) {
      const state = asl.States[name];
      expect(state?.Catch?.some((c) => c.ErrorEquals.includes('States.ALL') && c.Next === 'MarkFailed')).toBe(
        true,
      );
      // Provider rejections are never retried.
      for (const retry of state?.Retry ?? []) {
        expect(retry.ErrorEquals).not.toContain('States.ALL');
        expect(retry.ErrorEquals).not.toContain('Provider.Rejected');
        expect(retry.ErrorEquals).not.toContain('Provider.Failed');
      }
    }
    expect(asl.States.MarkFailed?.Next).toBe('Failed');
    expect(asl.States.Failed?.Type).toBe('Fail');
  });

  it("waits minutes for a step held back at its function's reserved concurrency, rather than failing the track", () => {
    const asl = JSON.parse(text) as {
      States: Record<
        string,
        {
          Retry?: {
            ErrorEquals: string[];
            IntervalSeconds?: number;
            MaxAttempts?: number;
            BackoffRate?: number;
          }[];
        }
      >;
    };
    // Step Functions' defaults for a retrier's missing fields.
    const patience = (retry: { IntervalSeconds?: number; MaxAttempts?: number; BackoffRate?: number }) =>
      Array.from(
        { length: retry.MaxAttempts ?? 3 },
        (_, attempt) => (retry.IntervalSeconds ?? 1) * (retry.BackoffRate ?? 2) ** attempt,
      ).reduce((sum, seconds) => sum + seconds, 0);
    for (const name of [
      'Submit',
      'WaitForCallback',
      'PollOnce',
      'Finish',
      'PrepareDownload',
      'TimeLyrics',
      'MarkFailed',
    ]) {
      const retry = asl.States[name]?.Retry?.find(
        (r) =>
          r.ErrorEquals.includes('Lambda.TooManyRequestsException') || r.ErrorEquals.includes('States.ALL'),
      );
      expect(retry, name).toBeDefined();
      expect(patience(retry ?? {}), name).toBeGreaterThanOrEqual(120);
    }
  });

  it('prepares the download after the track plays, and a failure there never fails or refunds the track', () => {
    const asl = JSON.parse(text) as {
      States: Record<
        string,
        {
          Type: string;
          Resource?: string;
          Choices?: { Variable: string; BooleanEquals?: boolean; Next: string }[];
          Default?: string;
          Retry?: { ErrorEquals: string[]; MaxAttempts?: number }[];
          Catch?: { ErrorEquals: string[]; Next: string }[];
          Next?: string;
          End?: boolean;
        }
      >;
    };
    // Finish makes the track playable; only then is the master marked, signed and hashed.
    expect(asl.States.Finish?.Next).toBe('DownloadPending');
    expect(asl.States.DownloadPending).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.track.downloadPending', BooleanEquals: true, Next: 'PrepareDownload' }],
      Default: 'TimeLyrics',
    });
    const prepare = asl.States.PrepareDownload;
    expect(substitutionsIn(JSON.stringify(prepare))).toEqual(['PrepareFunctionArn']);
    // Any failure is retried (several times), then ends the execution failed (counted and alarmed) ...
    const retried = prepare?.Retry?.find((r) => r.ErrorEquals.includes('States.ALL'));
    expect(retried?.MaxAttempts).toBeGreaterThanOrEqual(3);
    expect(prepare?.Catch).toEqual([
      expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: 'DownloadNotPrepared' }),
    ]);
    expect(asl.States.DownloadNotPrepared?.Type).toBe('Fail');
    // ... and never reaches MarkFailed: a track that plays is never failed or refunded.
    const reachable = new Set<string>();
    const visit = (name: string | undefined) => {
      if (!name || reachable.has(name)) return;
      reachable.add(name);
      const state = asl.States[name];
      visit(state?.Next);
      visit(state?.Default);
      for (const choice of state?.Choices ?? []) visit(choice.Next);
      for (const c of state?.Catch ?? []) visit(c.Next);
    };
    visit('DownloadPending');
    expect([...reachable].sort()).toEqual([
      'DownloadNotPrepared',
      'DownloadPending',
      'LyricsNotTimed',
      'PrepareDownload',
      'TimeLyrics',
    ]);
  });

  it('times the lyrics after the download is prepared, and a failure there never fails or refunds the track', () => {
    const asl = JSON.parse(text) as {
      States: Record<string, { Type: string; Next?: string; End?: boolean; Catch?: { Next: string }[] }>;
    };
    expect(asl.States.PrepareDownload?.Next).toBe('TimeLyrics');
    const lyrics = asl.States.TimeLyrics;
    expect(substitutionsIn(JSON.stringify(lyrics))).toEqual(['LyricsFunctionArn']);
    expect(lyrics?.End).toBe(true);
    expect(lyrics?.Catch?.map((c) => c.Next)).toEqual(['LyricsNotTimed']);
    expect(asl.States.LyricsNotTimed?.Type).toBe('Fail');
  });

  it('refuses an unbound substitution', () => {
    const arns = placeholderArns() as Record<string, string>;
    delete arns.PollFunctionArn;
    expect(() => substituteAsl(text, arns as never)).toThrow(/PollFunctionArn/);
  });
});
