import { RetentionDays } from 'aws-cdk-lib/aws-logs';

/** What differs between stages; everything else is the same stack. */
export interface StageConfig {
  /** The CloudFormation stack: every name in it derives from this, so stages live side by side in one account. */
  readonly stackName: string;
  /** How long function and workflow logs are kept. */
  readonly logRetention: RetentionDays;
}

/** The stages `cdk deploy -c stage=<name>` knows. */
export const stages = {
  dev: { stackName: 'Tunesmith-dev', logRetention: RetentionDays.TWO_WEEKS },
  prod: { stackName: 'Tunesmith-prod', logRetention: RetentionDays.THREE_MONTHS },
} as const satisfies Record<string, StageConfig>;

export type StageName = keyof typeof stages;

/** The stage named by `-c stage=...` (dev when none); an unknown name stops synthesis. */
export function stageNamed(value: unknown): { name: StageName } & StageConfig {
  const name = value === undefined || value === '' ? 'dev' : value;
  if (typeof name !== 'string' || !(name in stages)) {
    throw new Error(`Unknown stage "${String(value)}": use -c stage=${Object.keys(stages).join('|')}.`);
  }
  return { name: name as StageName, ...stages[name as StageName] };
}
