import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../functions/scripts/local-cloud';
import { backfill, backfillSteps, type CloudFormationOf, parseBackfillArgs, resolveTarget } from './backfill';
import type { BackfillStep, StepOptions, Target } from './backfill/step';

// The one backfill runner: its arguments, its help, where it finds a step's
// target (the local cloud, a stage's stack outputs, the environment) and its
// exit codes. The steps' own work is proven against the emulators
// (functions/test/peaks.int.test.ts, files-backfill.int.test.ts, lyrics-backfill.int.test.ts).

const step = (name: string) => backfillSteps.find((s) => s.name === name) as BackfillStep;
const usageError = (argv: string[]): string => {
  try {
    parseBackfillArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was taken`);
};
const helpOf = (argv: string[]): string => {
  const parsed = parseBackfillArgs(argv);
  if (!('help' in parsed)) throw new Error(`${argv.join(' ')} is not a help`);
  return parsed.help;
};

describe('the help', () => {
  it('lists every step, with or without --help', () => {
    for (const text of [helpOf(['--help']), helpOf(['-h']), usageError([])]) {
      expect(text).toMatch(/^Usage: npm run backfill -- <step> /);
      expect(text).toMatch(/^ {2}peaks {9}waveform peaks/m);
      expect(text).toMatch(/^ {2}files {9}marking, loudness/m);
      expect(text).toMatch(/^ {2}share-pages {3}the share page/m);
      expect(text).toMatch(/^ {2}lyrics {8}timed lyrics for completed tracks with lyrics/m);
      expect(text).toMatch(/^ {2}playlists {5}playlists' tracks apart from their cards/m);
    }
  });

  it("gives a step's own options and the names it takes from the environment", () => {
    const peaks = helpOf(['peaks', '--help']);
    expect(peaks.split('\n')[0]).toBe(
      'Usage: npm run backfill -- peaks [--local | --stage <name> [--region <region>]] [--dry-run] [--before <ISO date>]',
    );
    expect(peaks).toContain('  --dry-run        only count the tracks that would get peaks');
    expect(peaks).not.toContain('--after');
    expect(peaks).toContain(
      'With neither --local nor --stage: TABLE_NAME, TRACKS_BUCKET and AWS_REGION from',
    );

    expect(helpOf(['files', '-h'])).toContain(
      '  --after <date>   only tracks created after this ISO 8601 instant (with --before: a batch)',
    );
    expect(helpOf(['files', '-h']).replace(/\n/g, ' ')).toContain(
      'TABLE_NAME, TRACKS_BUCKET, PUBLIC_ORIGIN and AWS_REGION (and C2PA_SIGNING_SECRET_ARN) from the environment.',
    );

    const lyrics = helpOf(['lyrics', '--help']);
    expect(lyrics.split('\n')[0]).toBe(
      'Usage: npm run backfill -- lyrics [--local | --stage <name> [--region <region>]] [--dry-run] [--before <ISO date>]',
    );
    expect(lyrics).toContain('fal-ai/whisper');
    expect(lyrics.replace(/\n/g, ' ')).toContain(
      'TABLE_NAME, TRACKS_BUCKET and AWS_REGION (and SETTINGS_KMS_KEY_ID) from the environment.',
    );

    const share = helpOf(['--help', 'share-pages']);
    expect(share.split('\n')[0]).toBe(
      'Usage: npm run backfill -- share-pages [--local | --stage <name> [--region <region>]]',
    );
    expect(share).not.toMatch(/--dry-run|--before|--after/);
  });
});

describe('parseBackfillArgs', () => {
  it('reads a step, where it runs and its options, dates in ISO 8601', () => {
    expect(
      parseBackfillArgs([
        'files',
        '--stage',
        'prod',
        '--region',
        'eu-west-1',
        '--dry-run',
        '--before',
        '2026-01-31',
        '--after',
        '2026-01-01T00:00:00+02:00',
      ]),
    ).toEqual({
      step: step('files'),
      where: { kind: 'stage', stage: 'prod', region: 'eu-west-1' },
      options: {
        dryRun: true,
        createdBefore: '2026-01-31T00:00:00.000Z',
        createdAfter: '2025-12-31T22:00:00.000Z',
      },
    });
    expect(parseBackfillArgs(['--local', 'peaks'])).toEqual({
      step: step('peaks'),
      where: { kind: 'local' },
      options: { dryRun: false },
    });
    expect(parseBackfillArgs(['share-pages'])).toEqual({
      step: step('share-pages'),
      where: { kind: 'environment' },
      options: { dryRun: false },
    });
  });

  it('refuses an option the step does not take, with its help', () => {
    const noDryRun = usageError(['share-pages', '--stage', 'dev', '--dry-run']);
    expect(noDryRun).toMatch(/^share-pages takes no --dry-run\.\n\nUsage: npm run backfill -- share-pages /);
    expect(usageError(['share-pages', '--before', '2026-01-01'])).toMatch(/^share-pages takes no --before\./);
    expect(usageError(['peaks', '--after', '2026-01-01'])).toMatch(
      /^peaks takes no --after\.\n\nUsage: npm run backfill -- peaks /,
    );
  });

  it('refuses what no step takes, with the help that fits', () => {
    expect(usageError(['pages'])).toMatch(
      /^There is no step "pages"\.\n\nUsage: npm run backfill -- <step> /,
    );
    expect(usageError(['peaks', '--force'])).toMatch(/'--force'[\s\S]*Usage: npm run backfill -- peaks /);
    expect(usageError(['peaks', '--stage'])).toMatch(/--stage[\s\S]*Usage: npm run backfill -- peaks /);
    expect(usageError(['peaks', 'files'])).toMatch(/^Unexpected argument "files": one step at a time\./);
    expect(usageError(['peaks', '--local', '--stage', 'dev'])).toMatch(
      /^Give --local or --stage, not both\./,
    );
    expect(usageError(['peaks', '--region', 'eu-west-1'])).toMatch(/^--region is the stage's/);
    expect(usageError(['files', '--before', 'last week'])).toMatch(/^--before takes an ISO 8601 date/);
    expect(usageError(['files', '--after', '2026-13-45'])).toMatch(/^--after takes an ISO 8601 date/);
  });
});

describe('resolveTarget', () => {
  it("takes the step's names and AWS_REGION from the environment, and nothing else", async () => {
    const env = {
      TABLE_NAME: 'table',
      TRACKS_BUCKET: 'tracks',
      PUBLIC_ORIGIN: 'https://tunesmith.example',
      AWS_REGION: 'eu-west-1',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      SITE_BUCKET: 'site',
    };
    // No endpoint is taken from the environment: without --local a step talks to AWS.
    expect(await resolveTarget(step('peaks'), { kind: 'environment' }, env)).toEqual({
      TABLE_NAME: 'table',
      TRACKS_BUCKET: 'tracks',
      AWS_REGION: 'eu-west-1',
    });
    expect(
      await resolveTarget(
        step('files'),
        { kind: 'environment' },
        { ...env, C2PA_SIGNING_SECRET_ARN: 'arn:c2pa' },
      ),
    ).toEqual({
      TABLE_NAME: 'table',
      TRACKS_BUCKET: 'tracks',
      PUBLIC_ORIGIN: 'https://tunesmith.example',
      C2PA_SIGNING_SECRET_ARN: 'arn:c2pa',
      AWS_REGION: 'eu-west-1',
    });
    // An optional name that is not set is left out, not set to "undefined".
    expect(await resolveTarget(step('share-pages'), { kind: 'environment' }, env)).toEqual({
      TABLE_NAME: 'table',
      SITE_BUCKET: 'site',
      PUBLIC_ORIGIN: 'https://tunesmith.example',
      AWS_REGION: 'eu-west-1',
    });
  });

  it('names what the environment lacks, with the step’s help', async () => {
    await expect(
      resolveTarget(step('files'), { kind: 'environment' }, { TABLE_NAME: 'table', AWS_REGION: '' }),
    ).rejects.toThrow(
      /^Missing TRACKS_BUCKET, PUBLIC_ORIGIN, AWS_REGION\.\n\nUsage: npm run backfill -- files /,
    );
  });

  describe('on a stage', () => {
    const stackId = 'arn:aws:cloudformation:eu-central-1:123456789012:stack/Tunesmith-prod/0a1b2c3d';
    const outputs = {
      TableName: 'Tunesmith-prod-DataTable',
      TracksBucketName: 'tunesmith-prod-tracks',
      SiteBucketName: 'tunesmith-prod-site',
      SiteUrl: 'https://tunesmith.example/',
      ContentCredentialsSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:c2pa',
      ShareKeysArn: 'arn:aws:cloudfront::123456789012:key-value-store/share',
      UserPoolId: 'eu-central-1_users',
    };
    const asked: { stack: string; region?: string }[] = [];
    let open = 0;
    const cloudFormation =
      (values: Record<string, string> = outputs, failure?: Error): CloudFormationOf =>
      (region) => {
        open += 1;
        return {
          send: async (command: DescribeStacksCommand) => {
            asked.push({ stack: command.input.StackName as string, ...(region ? { region } : {}) });
            if (failure) throw failure;
            return {
              Stacks: [
                {
                  StackName: command.input.StackName,
                  StackId: stackId,
                  Outputs: Object.entries(values).map(([OutputKey, OutputValue]) => ({
                    OutputKey,
                    OutputValue,
                  })),
                },
              ],
            };
          },
          destroy: () => {
            open -= 1;
          },
        } as never;
      };
    afterEach(() => {
      asked.length = 0;
      expect(open).toBe(0);
    });

    it("maps each step's outputs to its names, the region from the stack's ARN", async () => {
      const prod = { kind: 'stage', stage: 'prod', region: 'eu-central-1' } as const;
      expect(await resolveTarget(step('peaks'), prod, {}, cloudFormation())).toEqual({
        TABLE_NAME: 'Tunesmith-prod-DataTable',
        TRACKS_BUCKET: 'tunesmith-prod-tracks',
        AWS_REGION: 'eu-central-1',
      });
      expect(asked).toEqual([{ stack: 'Tunesmith-prod', region: 'eu-central-1' }]);
      expect(
        await resolveTarget(step('files'), { kind: 'stage', stage: 'dev' }, {}, cloudFormation()),
      ).toEqual({
        TABLE_NAME: 'Tunesmith-prod-DataTable',
        TRACKS_BUCKET: 'tunesmith-prod-tracks',
        PUBLIC_ORIGIN: 'https://tunesmith.example/',
        C2PA_SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:c2pa',
        AWS_REGION: 'eu-central-1',
      });
      expect(asked[1]).toEqual({ stack: 'Tunesmith-dev' });
      expect(await resolveTarget(step('share-pages'), prod, {}, cloudFormation())).toEqual({
        TABLE_NAME: 'Tunesmith-prod-DataTable',
        SITE_BUCKET: 'tunesmith-prod-site',
        PUBLIC_ORIGIN: 'https://tunesmith.example/',
        SHARE_KVS_ARN: 'arn:aws:cloudfront::123456789012:key-value-store/share',
        AWS_REGION: 'eu-central-1',
      });
    });

    it('asks for a current stack when an output is missing, optional ones included', async () => {
      const { ContentCredentialsSecretArn: _secret, SiteUrl: _site, ...older } = outputs;
      await expect(
        resolveTarget(step('files'), { kind: 'stage', stage: 'dev' }, {}, cloudFormation(older)),
      ).rejects.toThrow(
        'Tunesmith-dev lacks SiteUrl, ContentCredentialsSecretArn: deploy the current stack (npx cdk deploy -c stage=dev).',
      );
      // The peaks need neither.
      expect(
        (await resolveTarget(step('peaks'), { kind: 'stage', stage: 'dev' }, {}, cloudFormation(older)))
          .TABLE_NAME,
      ).toBe('Tunesmith-prod-DataTable');
    });

    it('refuses a stage that is not one, and says when its stack is not there', async () => {
      await expect(
        resolveTarget(step('peaks'), { kind: 'stage', stage: 'qa' }, {}, cloudFormation()),
      ).rejects.toThrow('Unknown stage "qa": use --stage dev|prod.');
      expect(asked).toEqual([]);
      const missing = Object.assign(new Error('Stack with id Tunesmith-dev does not exist'), {
        name: 'ValidationError',
      });
      await expect(
        resolveTarget(step('peaks'), { kind: 'stage', stage: 'dev' }, {}, cloudFormation(outputs, missing)),
      ).rejects.toThrow('No stack Tunesmith-dev in this account and region: deploy it, or pass --region.');
    });
  });

  describe('on the running local cloud', () => {
    let dataDir: string;
    const localEnv = {
      TABLE_NAME: 'tunesmith',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      S3_ENDPOINT: 'http://127.0.0.1:4569',
      TRACKS_BUCKET: 'tunesmith-tracks',
      SITE_BUCKET: 'tunesmith-site',
      PUBLIC_ORIGIN: 'http://127.0.0.1:3000',
    };
    const cloudAt = (pid: number, env: Record<string, string>) => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'backfill-'));
      writeFileSync(
        path.join(dataDir, 'local-cloud.json'),
        JSON.stringify({ running: { pid, url: env.PUBLIC_ORIGIN, env } }),
      );
      return { TUNESMITH_DATA_DIR: dataDir };
    };
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    it('takes its whole environment: the emulators’ endpoints and keys with the names', async () => {
      const env = cloudAt(process.pid, localEnv);
      expect(await resolveTarget(step('files'), { kind: 'local' }, env)).toEqual(localEnv);
      expect(await resolveTarget(step('share-pages'), { kind: 'local' }, env)).toEqual(localEnv);
    });

    it('names what the cloud lacks, and says when it is not running', async () => {
      const { S3_ENDPOINT: _s3, ...withoutS3 } = localEnv;
      await expect(
        resolveTarget(step('peaks'), { kind: 'local' }, cloudAt(process.pid, withoutS3)),
      ).rejects.toThrow(/local-cloud\.json lacks S3_ENDPOINT: restart the local cloud/);
      rmSync(dataDir, { recursive: true, force: true });
      const { SITE_BUCKET: _site, ...withoutSite } = localEnv;
      await expect(
        resolveTarget(step('share-pages'), { kind: 'local' }, cloudAt(process.pid, withoutSite)),
      ).rejects.toThrow(/lacks SITE_BUCKET/);
      rmSync(dataDir, { recursive: true, force: true });
      const exited = spawnSync(process.execPath, ['-e', '']).pid;
      await expect(
        resolveTarget(step('peaks'), { kind: 'local' }, cloudAt(exited, localEnv)),
      ).rejects.toThrow(/is not running\. Start it with npm start/);
    });
  });
});

describe('backfill', () => {
  const ran: { target: Target; options: StepOptions }[] = [];
  const fake = (failed: number | Error): BackfillStep => ({
    name: 'tags',
    summary: 'tags for tracks that have none',
    description: 'Tags every track.',
    environment: { TABLE_NAME: { output: 'TableName' } },
    options: { 'dry-run': 'only count', before: 'only older tracks' },
    async run(target, options, print) {
      ran.push({ target, options });
      print('one: tagged');
      if (failed instanceof Error) throw failed;
      return { failed };
    },
  });
  const run = async (argv: string[], step: BackfillStep) => {
    const out: string[] = [];
    const errors: string[] = [];
    const code = await backfill(argv, {
      env: { TABLE_NAME: 'table', AWS_REGION: 'eu-west-1', HOME: '/home/someone' },
      print: (text) => out.push(text),
      printError: (text) => errors.push(text),
      steps: [step],
    });
    return { code, out, errors };
  };
  afterEach(() => {
    ran.length = 0;
  });

  it('runs the step on its target with its options, prints what it prints and exits 0', async () => {
    expect(await run(['tags', '--dry-run', '--before', '2026-01-31'], fake(0))).toEqual({
      code: 0,
      out: ['one: tagged'],
      errors: [],
    });
    expect(ran).toEqual([
      {
        target: { TABLE_NAME: 'table', AWS_REGION: 'eu-west-1' },
        options: { dryRun: true, createdBefore: '2026-01-31T00:00:00.000Z' },
      },
    ]);
  });

  it('exits 1 when a track failed or the step stopped', async () => {
    expect((await run(['tags'], fake(2))).code).toBe(1);
    expect(await run(['tags'], fake(new Error('the table is gone')))).toEqual({
      code: 1,
      out: ['one: tagged'],
      errors: ['Could not run the tags backfill: the table is gone'],
    });
  });

  it('prints the help on stdout and exits 0; a usage error goes to stderr with exit 1 and runs nothing', async () => {
    const help = await run(['tags', '--help'], fake(0));
    expect(help.code).toBe(0);
    expect(help.out[0]).toMatch(/^Usage: npm run backfill -- tags /);
    const none = await run([], fake(0));
    expect(none.code).toBe(1);
    expect(none.out).toEqual([]);
    expect(none.errors[0]).toMatch(/^Usage: npm run backfill -- <step> [\s\S]*\n {2}tags {3}tags for tracks/);
    const refused = await run(['tags', '--after', '2026-01-01'], fake(0));
    expect(refused.code).toBe(1);
    expect(refused.errors[0]).toMatch(/^tags takes no --after\./);
    expect(ran).toEqual([]);
  });
});
