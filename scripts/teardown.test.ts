import { describe, expect, it } from 'vitest';
import {
  planTeardown,
  type Removal,
  runTeardown,
  type StackRecord,
  stackNameForTeardown,
  type TeardownAws,
  TeardownError,
} from './teardown';

// Taking a stage down for good: what is removed (from CloudFormation's record of
// the stack), in which order, refusal of prod, and the typed confirmation.

const stackId = 'arn:aws:cloudformation:eu-west-1:123456789012:stack/Tunesmith-dev/0a1b2c3d';

/** A stack shaped as the synthesised one: retained data, resources that go with it, functions. */
function record(live = true): StackRecord {
  const retain = (Type: string, Properties: Record<string, unknown> = {}) => ({
    Type,
    DeletionPolicy: 'Retain',
    Properties,
  });
  return {
    stackName: 'Tunesmith-dev',
    stackId,
    live,
    template: {
      Resources: {
        DataAccessLogs: retain('AWS::S3::Bucket'),
        DataUploads: retain('AWS::S3::Bucket', {
          LoggingConfiguration: { DestinationBucketName: { Ref: 'DataAccessLogs' } },
        }),
        DataTable: retain('AWS::DynamoDB::Table'),
        AuthUserPool: retain('AWS::Cognito::UserPool'),
        AuthAdminPool: retain('AWS::Cognito::UserPool'),
        StripeKeysSecret: retain('AWS::SecretsManager::Secret'),
        SettingsKey: retain('AWS::KMS::Key'),
        ApiAccessLogs: retain('AWS::Logs::LogGroup'),
        // Removed by CloudFormation with the stack: not the teardown's business.
        OriginLockSecret: { Type: 'AWS::SecretsManager::Secret', DeletionPolicy: 'Delete' },
        AlarmsKey: { Type: 'AWS::KMS::Key', DeletionPolicy: 'Delete' },
        ApiAuthFunctionLogs: { Type: 'AWS::Logs::LogGroup', DeletionPolicy: 'Delete' },
        ApiAuthFunction: {
          Type: 'AWS::Lambda::Function',
          Properties: { LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: 'ApiAuthFunctionLogs' } } },
        },
        DeployWebHandler: { Type: 'AWS::Lambda::Function', Properties: {} },
        Queue: { Type: 'AWS::SQS::Queue' },
      },
    },
    resources: [
      ['DataAccessLogs', 'tunesmith-dev-dataaccesslogs-1', 'AWS::S3::Bucket'],
      ['DataUploads', 'tunesmith-dev-uploads-0a1b2c3d-eu-west-1', 'AWS::S3::Bucket'],
      ['DataTable', 'Tunesmith-dev-DataTable-1', 'AWS::DynamoDB::Table'],
      ['AuthUserPool', 'eu-west-1_users', 'AWS::Cognito::UserPool'],
      ['AuthAdminPool', 'eu-west-1_admins', 'AWS::Cognito::UserPool'],
      [
        'StripeKeysSecret',
        'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Stripe-1',
        'AWS::SecretsManager::Secret',
      ],
      ['SettingsKey', '1234abcd-key', 'AWS::KMS::Key'],
      ['ApiAccessLogs', 'Tunesmith-dev-ApiAccessLogs-1', 'AWS::Logs::LogGroup'],
      [
        'OriginLockSecret',
        'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Origin-1',
        'AWS::SecretsManager::Secret',
      ],
      ['AlarmsKey', 'alarms-key', 'AWS::KMS::Key'],
      ['ApiAuthFunctionLogs', 'Tunesmith-dev-ApiAuthFunctionLogs-1', 'AWS::Logs::LogGroup'],
      ['ApiAuthFunction', 'Tunesmith-dev-ApiAuthFunction-1', 'AWS::Lambda::Function'],
      ['DeployWebHandler', 'Tunesmith-dev-DeployWebHandler-1', 'AWS::Lambda::Function'],
      ['Queue', 'https://sqs/queue', 'AWS::SQS::Queue'],
    ].map(
      ([logicalId, physicalId, type]) =>
        ({ logicalId, physicalId, type }) as StackRecord['resources'][number],
    ),
  };
}

const retained: Removal[] = [
  { kind: 'bucket', id: 'tunesmith-dev-uploads-0a1b2c3d-eu-west-1' },
  // The bucket the others log into goes after them.
  { kind: 'bucket', id: 'tunesmith-dev-dataaccesslogs-1' },
  { kind: 'table', id: 'Tunesmith-dev-DataTable-1' },
  { kind: 'userPool', id: 'eu-west-1_users' },
  { kind: 'userPool', id: 'eu-west-1_admins' },
  { kind: 'secret', id: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Stripe-1' },
  { kind: 'key', id: '1234abcd-key' },
  { kind: 'logGroup', id: 'Tunesmith-dev-ApiAccessLogs-1' },
  // Lambda made this one by itself: the function names no log group of its own.
  { kind: 'logGroup', id: '/aws/lambda/Tunesmith-dev-DeployWebHandler-1' },
];

/** The edge stack of a dev stage deployed with `-c waf=on` (us-east-1): its web ACL, nothing kept. */
const edgeStack: StackRecord = {
  stackName: 'Tunesmith-dev-edge',
  stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/Tunesmith-dev-edge/9f8e',
  live: true,
  template: { Resources: { WebAcl: { Type: 'AWS::WAFv2::WebACL' } } },
  resources: [{ logicalId: 'WebAcl', physicalId: 'acl', type: 'AWS::WAFv2::WebACL' }],
};

/** A fake AWS that knows one stack (and an edge stack in us-east-1, if given) and records every removal. */
function fakeAws(
  stack: StackRecord | undefined,
  fail: (removal: Removal) => boolean = () => false,
  edge?: StackRecord,
) {
  const removed: Removal[] = [];
  const found: string[] = [];
  const aws: TeardownAws = {
    async findStack(name, region) {
      found.push(region ? `${name} in ${region}` : name);
      return region ? (region === 'us-east-1' && name === edge?.stackName ? edge : undefined) : stack;
    },
    async remove(removal) {
      if (fail(removal)) throw new Error('AccessDenied');
      removed.push(removal);
      return 'removed';
    },
  };
  return { aws, removed, found };
}

const quiet = { log: () => {} };

describe('planTeardown', () => {
  it('deletes a live stack first, then exactly what its template keeps, then the logs Lambda made by itself', () => {
    expect(planTeardown(record(true))).toEqual([{ kind: 'stack', id: 'Tunesmith-dev' }, ...retained]);
  });

  it('cleans up after a stack already deleted with cdk destroy (CloudFormation keeps its record)', () => {
    expect(planTeardown(record(false))).toEqual(retained);
  });
});

describe('a stage with a test mail sink', () => {
  /** The dev stack deployed with `-c mailSinkDomain=...`: a receipt rule set, and a bucket the mail is kept in. */
  function withMailSink(live = true): StackRecord {
    const base = record(live);
    return {
      ...base,
      template: {
        Resources: {
          ...base.template.Resources,
          MailSinkRuleSet: { Type: 'AWS::SES::ReceiptRuleSet', Properties: {} },
          MailSinkBucket: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Retain', Properties: {} },
        },
      },
      resources: [
        ...base.resources,
        {
          logicalId: 'MailSinkRuleSet',
          physicalId: 'Tunesmith-dev-mail-sink',
          type: 'AWS::SES::ReceiptRuleSet',
        },
        { logicalId: 'MailSinkBucket', physicalId: 'tunesmith-dev-mailsink-1', type: 'AWS::S3::Bucket' },
      ],
    };
  }

  it('stops the rule set receiving before the stack is deleted (SES cannot delete an active one), and removes the kept mail', () => {
    const plan = planTeardown(withMailSink());
    expect(plan.slice(0, 2)).toEqual([
      { kind: 'receiptRuleSet', id: 'Tunesmith-dev-mail-sink' },
      { kind: 'stack', id: 'Tunesmith-dev' },
    ]);
    expect(plan).toContainEqual({ kind: 'bucket', id: 'tunesmith-dev-mailsink-1' });
    // Once the stack is gone, so is its rule set.
    expect(planTeardown(withMailSink(false)).map((r) => r.kind)).not.toContain('receiptRuleSet');
  });

  it('deletes nothing when the rule set cannot be deactivated', async () => {
    const stuck = fakeAws(withMailSink(), (r) => r.kind === 'receiptRuleSet');
    const lines: string[] = [];
    const result = await runTeardown({
      stage: 'dev',
      yes: true,
      aws: stuck.aws,
      ask: async () => '',
      log: (l) => lines.push(l),
    });
    expect(result.outcome).toBe('incomplete');
    expect(stuck.removed).toEqual([]);
    expect(lines.join('\n')).toContain(
      'stop receiving mail with the receipt rule set Tunesmith-dev-mail-sink if it is the active one',
    );
  });
});

describe('stackNameForTeardown', () => {
  it('refuses prod and unknown stages, and names the dev stack', () => {
    expect(() => stackNameForTeardown('prod')).toThrow(TeardownError);
    expect(() => stackNameForTeardown('prod')).toThrow(/Refusing to tear down prod/);
    expect(() => stackNameForTeardown('staging')).toThrow(/Unknown stage "staging"/);
    expect(stackNameForTeardown('dev')).toBe('Tunesmith-dev');
  });
});

describe('runTeardown', () => {
  it('refuses prod before asking AWS anything, even with --yes', async () => {
    const { aws, removed, found } = fakeAws(record());
    await expect(
      runTeardown({ stage: 'prod', yes: true, aws, ask: async () => 'prod', ...quiet }),
    ).rejects.toThrow(/Refusing to tear down prod/);
    expect(found).toEqual([]);
    expect(removed).toEqual([]);
  });

  it('removes nothing unless the stage name is typed', async () => {
    const { aws, removed } = fakeAws(record());
    const questions: string[] = [];
    const result = await runTeardown({
      stage: 'dev',
      aws,
      ask: async (question) => {
        questions.push(question);
        return 'yes';
      },
      ...quiet,
    });
    expect(questions).toEqual(['Type the stage name (dev) to go on: ']);
    expect(result.outcome).toBe('cancelled');
    expect(removed).toEqual([]);
  });

  it('shows the plan, then removes everything in order once the name is typed', async () => {
    const { aws, removed, found } = fakeAws(record());
    const lines: string[] = [];
    const result = await runTeardown({
      stage: 'dev',
      aws,
      ask: async () => ' dev\n',
      log: (l) => lines.push(l),
    });
    expect(found).toEqual(['Tunesmith-dev', 'Tunesmith-dev-edge in us-east-1']);
    expect(result.outcome).toBe('done');
    expect(removed).toEqual([{ kind: 'stack', id: 'Tunesmith-dev' }, ...retained]);
    expect(lines.join('\n')).toContain('schedule the KMS key 1234abcd-key for deletion in 7 days');
    expect(lines.join('\n')).toContain(
      'turn off deletion protection and delete the user pool eu-west-1_users',
    );
  });

  it('removes the edge stack of a stage with a web ACL in us-east-1, right after the stage’s stack', async () => {
    const { aws, removed } = fakeAws(record(), undefined, edgeStack);
    const lines: string[] = [];
    const result = await runTeardown({
      stage: 'dev',
      yes: true,
      aws,
      ask: async () => '',
      log: (l) => lines.push(l),
    });
    expect(result.outcome).toBe('done');
    expect(removed).toEqual([
      { kind: 'stack', id: 'Tunesmith-dev' },
      { kind: 'stack', id: 'Tunesmith-dev-edge', region: 'us-east-1' },
      ...retained,
    ]);
    expect(lines.join('\n')).toContain(
      "delete the stack Tunesmith-dev-edge in us-east-1 (the distribution's web ACL)",
    );

    // A stage already destroyed may still have its edge stack.
    const after = fakeAws(record(false), undefined, edgeStack);
    await runTeardown({ stage: 'dev', yes: true, aws: after.aws, ask: async () => '', ...quiet });
    expect(after.removed[0]).toEqual({ kind: 'stack', id: 'Tunesmith-dev-edge', region: 'us-east-1' });
  });

  it('with --yes asks nothing', async () => {
    const { aws, removed } = fakeAws(record());
    const result = await runTeardown({
      stage: 'dev',
      yes: true,
      aws,
      ask: async () => {
        throw new Error('asked');
      },
      ...quiet,
    });
    expect(result.outcome).toBe('done');
    expect(removed).toHaveLength(retained.length + 1);
  });

  it('keeps going past a failed removal and reports it, but removes nothing under a stack that would not go', async () => {
    const table = fakeAws(record(), (r) => r.kind === 'table');
    const partly = await runTeardown({
      stage: 'dev',
      yes: true,
      aws: table.aws,
      ask: async () => '',
      ...quiet,
    });
    expect(partly.outcome).toBe('incomplete');
    expect(partly.failed.map((f) => f.removal.kind)).toEqual(['table']);
    expect(table.removed).toHaveLength(retained.length);

    const stuck = fakeAws(record(), (r) => r.kind === 'stack');
    const stopped = await runTeardown({
      stage: 'dev',
      yes: true,
      aws: stuck.aws,
      ask: async () => '',
      ...quiet,
    });
    expect(stopped.outcome).toBe('incomplete');
    expect(stuck.removed).toEqual([]);
  });

  it('says there is nothing to do when the account has no record of the stack', async () => {
    const { aws, removed } = fakeAws(undefined);
    const result = await runTeardown({ stage: 'dev', aws, ask: async () => 'dev', ...quiet });
    expect(result.outcome).toBe('nothing');
    expect(removed).toEqual([]);
  });
});
