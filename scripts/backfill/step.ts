/**
 * What a backfill step tells the runner (scripts/backfill.ts): the names it
 * runs with and the stack outputs that give them on a stage, the options it
 * takes, and how it runs and reports. The runner owns the rest: arguments,
 * where it runs, help, output and the exit code. A new backfill is one more
 * module here, listed in the runner's `backfillSteps`.
 */

/** The names a step runs with: TABLE_NAME, AWS_REGION, ..., and locally the emulators' endpoints and keys. */
export type Target = Record<string, string | undefined>;

/** The options a step may take besides where it runs. */
export type StepOption = 'dry-run' | 'before' | 'after';

/** The options as the step gets them: dates checked and in ISO 8601. */
export interface StepOptions {
  dryRun: boolean;
  createdBefore?: string;
  createdAfter?: string;
}

export interface BackfillStep {
  /** As typed after `npm run backfill --`. */
  name: string;
  /** One line in the list of steps. */
  summary: string;
  /** What it does, for its `--help`. */
  description: string;
  /**
   * The names it runs with besides AWS_REGION, each with the stack output
   * that gives it on a stage. An `optional` one may be missing from the
   * environment (the step then does without); a stage's stack must have it.
   */
  environment: Record<string, { output: string; optional?: true }>;
  /** The options it takes, each with its line in the help. */
  options: Partial<Record<StepOption, string>>;
  /** Runs on a complete target, printing as it goes; says how many tracks failed. */
  run(target: Target, options: StepOptions, print: (line: string) => void): Promise<{ failed: number }>;
}
