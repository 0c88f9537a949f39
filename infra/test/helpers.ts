import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll } from 'vitest';
import { type BuildAppOptions, buildApp } from '../lib/app';
import { ENTRY_TAG } from '../lib/node-function';
import type { TunesmithStack } from '../lib/tunesmith-stack';

export type Resource = {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  DependsOn?: string[];
};

export interface Synthesized {
  stack: TunesmithStack;
  template: Template;
  resources: Record<string, Resource>;
  outdir: string;
}

const tempDirs: string[] = [];
export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
// Registered in every test file that imports this module: assemblies with the site upload weigh ~20 MB.
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A web build stand-in, so the BucketDeployment path can be synthesised without building the SPA. */
export function fakeWebBuild(): string {
  const dir = tempDir('tunesmith-web-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Tunesmith</title>');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-AbCd1234.js'), 'console.log(1)');
  return dir;
}

/** The sender the synthesised stacks name unless a test says otherwise. */
export const TEST_SENDER = 'Tunesmith <no-reply@tunesmith.test>';

/** For `beforeAll` hooks that synthesise: a whole-stack synthesis outlasts vitest's 10 s hook default on a busy machine. */
export const SYNTH_TIMEOUT_MS = 120_000;

/**
 * Synthesises the real stack without esbuild (the template is the same apart
 * from asset hashes). `webAssetsPath` defaults to a folder that does not
 * exist, so results do not depend on whether someone built the SPA.
 */
export function synth(options: BuildAppOptions = {}): Synthesized {
  const outdir = tempDir('tunesmith-cdk-');
  const { stack } = buildApp({
    bundle: false,
    outdir,
    // The paths the tests name (/Tunesmith/...); stages are tested on their own.
    stackName: 'Tunesmith',
    webAssetsPath: join(outdir, 'no-web-build'),
    ...options,
    // As the CDK CLI does: construct paths in the template tie resources to cdk-nag's report.
    // A sender, as every deploy must name one (an empty mailFrom tests what happens without).
    context: { 'aws:cdk:enable-path-metadata': true, mailFrom: TEST_SENDER, ...options.context },
  });
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources as Record<string, Resource>, outdir };
}

export interface SynthesizedStack extends Synthesized {
  /** Logical id of the one function built from `functions/src/lambdas/<group>.ts`; throws unless there is exactly one. */
  functionOf(group: string): string;
}

/**
 * Synthesises the stack once, in a `beforeAll` of the calling test file, so
 * read the result inside tests and later hooks. `resources` is filled in place
 * (a test file may destructure it at module level); the other fields throw
 * when read before the hook has run.
 */
export function synthBeforeAll(options: BuildAppOptions = {}): SynthesizedStack {
  let current: Synthesized | undefined;
  const resources: Record<string, Resource> = {};
  let byEntry = new Map<string, string[]>();
  beforeAll(() => {
    current = synth(options);
    Object.assign(resources, current.resources);
    byEntry = functionsByEntry(resources);
  }, SYNTH_TIMEOUT_MS);
  const ready = (): Synthesized => {
    if (!current)
      throw new Error('The stack is synthesised in beforeAll: read it inside a test or a later hook');
    return current;
  };
  return {
    get stack() {
      return ready().stack;
    },
    get template() {
      return ready().template;
    },
    get outdir() {
      return ready().outdir;
    },
    resources,
    functionOf(group) {
      ready();
      const ids = byEntry.get(group) ?? [];
      if (ids.length !== 1) throw new Error(`expected one function for ${group}, found ${ids.length}`);
      return ids[0] as string;
    },
  };
}

/** A resource's properties; throws when the resource is missing, so a test fails with a clear message. */
export function propsOf(resource: Resource | undefined): Record<string, unknown> {
  if (!resource) throw new Error('Resource not found in the template');
  return resource.Properties ?? {};
}

export const logicalId = (stack: TunesmithStack, element: unknown): string =>
  stack.getLogicalId(element as CfnElement);

/** Logical ids of the Lambda functions built from `functions/src/lambdas/<entry>.ts`, by entry. */
export function functionsByEntry(resources: Record<string, Resource>): Map<string, string[]> {
  const byEntry = new Map<string, string[]>();
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const tags = (resource.Properties?.Tags ?? []) as { Key: string; Value: string }[];
    const entry = tags.find((tag) => tag.Key === ENTRY_TAG)?.Value;
    if (entry) byEntry.set(entry, [...(byEntry.get(entry) ?? []), id]);
  }
  return byEntry;
}

/** Every IAM policy statement attached to a function's execution role. */
export function statementsOfFunction(resources: Record<string, Resource>, functionId: string): Statement[] {
  const role = (propsOf(resources[functionId]).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' &&
        (propsOf(r).Roles as { Ref: string }[]).some((ref) => ref.Ref === role),
    )
    .flatMap((r) => (propsOf(r).PolicyDocument as { Statement: Statement[] }).Statement);
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

export const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

export const resourcesOf = (statement: Statement): unknown[] =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/**
 * Renders a CloudFormation value as a string with intrinsics as placeholders
 * (`{Ref:X}`, `{X.Attr}`), so token-built strings such as the CSP can be read.
 */
export function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map(flatten).join(separator);
    }
    if ('Ref' in object) return `{Ref:${String(object.Ref)}}`;
    if ('Fn::GetAtt' in object) return `{${(object['Fn::GetAtt'] as string[]).join('.')}}`;
  }
  return JSON.stringify(value);
}

export interface NagReportRow {
  ruleId: string;
  resourcePath: string;
  compliance: string;
  /** For granular rules, the finding a suppression covered, e.g. `Resource::*`. */
  finding: string | undefined;
}

/** cdk-nag's CSV reports (AwsSolutions and ServerlessChecks) of the last synthesis into `outdir`. */
export function readNagReport(outdir: string, stackName = 'Tunesmith'): NagReportRow[] {
  return ['AwsSolutions', 'Serverless'].flatMap((pack) => {
    const csv = readFileSync(join(outdir, `${pack}--${stackName}-NagReport.csv`), 'utf8');
    const [, ...lines] = parseCsv(csv);
    return lines.map(([ruleId = '', resourcePath = '', compliance = '', reason = '']) => ({
      ruleId,
      resourcePath,
      compliance,
      finding: /^\[([^\]]+)\]/.exec(reason)?.[1],
    }));
  });
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** The Allow statements of the policy on the bucket with logical id `bucket`. */
export function bucketPolicyAllows(
  resources: Record<string, Resource>,
  bucket: string,
): Record<string, unknown>[] {
  const policy = Object.values(resources).find(
    (r) => r.Type === 'AWS::S3::BucketPolicy' && flatten(r.Properties?.Bucket) === `{Ref:${bucket}}`,
  );
  const statements = (propsOf(policy).PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
  return statements.filter((s) => s.Effect === 'Allow');
}

/**
 * The settings prod cannot synthesise without: a domain of the API's own, so
 * its execute-api endpoint is off (decision 013).
 */
export const PROD_API_ORIGIN = {
  apiOriginDomain: 'api-origin.example.org',
  apiOriginCertificateArn:
    'arn:aws:acm:eu-west-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
} as const;

/** CDK context for a stage, with what that stage requires. */
export const stageContext = (stage: string | undefined): Record<string, string> =>
  stage === 'prod' ? { stage, ...PROD_API_ORIGIN } : stage ? { stage } : {};
