/**
 * This run's target, as the global setup provided it (local/test/global-setup.ts),
 * and the way tests that need the local cloud's own powers say so.
 */
import { describe, inject, it } from 'vitest';
import { type AwsService, awsClientConfig, targetOf } from './target';

export const apiUrl = inject('apiUrl');
export const cloudEnv = inject('cloudEnv');
export const target = targetOf(apiUrl, cloudEnv, inject('isLocal'));
/** Whether this run is against a deployed stage (TUNESMITH_API_URL) rather than the local cloud. */
export const onStage = target.kind === 'stage';

/** Options for an AWS SDK client of `service` on this run's target (emulator, or default credential chain). */
export const clientConfig = (service: AwsService) => awsClientConfig(target, cloudEnv, service);

type Suite = (name: string, fn: () => void) => void;
type Test = {
  (name: string, fn: () => Promise<void> | void): void;
  (name: string, options: { timeout?: number }, fn: () => Promise<void> | void): void;
};

/** `describe` and `it` that skip when `skip` holds, `label` (the reason) in the skipped test's name. */
export function skippedWhen(skip: boolean, label: string): { describe: Suite; it: Test } {
  const name = (title: string) => (skip ? `${title} [${label}]` : title);
  const suite = skip ? describe.skip : describe;
  const test = (skip ? it.skip : it) as (...args: unknown[]) => void;
  return {
    describe: (title, fn) => suite(name(title), fn),
    it: ((title: string, ...rest: unknown[]) => test(name(title), ...rest)) as Test,
  };
}

/**
 * For tests that need what only the local cloud has (the embedded Stripe's
 * hosted pages and test clock, the embedded music provider's failure tags,
 * a second client address, the local workflow runner). Against the local
 * cloud they run as always; against a stage they are skipped, the reason in
 * their name, so the report says why.
 */
export const localOnly = (reason: string) => skippedWhen(onStage, `local cloud only: ${reason}`);

/**
 * For tests whose generations reach the music provider: free locally (the
 * embedded provider); on a stage that is the real fal, which costs money, so
 * they run there only with TUNESMITH_ALLOW_FAL_COST=1.
 */
export const paidGeneration = skippedWhen(
  !target.allowsPaidGeneration,
  'calls the real fal, which costs money: set TUNESMITH_ALLOW_FAL_COST=1 to run it',
);
