import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { repoRoot } from './paths';
import { stageNamed } from './stages';
import { TunesmithStack } from './tunesmith-stack';
import { EdgeProtectionStack, WEB_ACL_REGION } from './waf';

export interface BuildAppOptions {
  /**
   * Bundle the Lambdas with esbuild. Tests turn it off: the template is the
   * same apart from asset hashes, and synthesis takes seconds less.
   * @default true
   */
  readonly bundle?: boolean;
  /**
   * Name of the CloudFormation stack; also prefixes the uploads bucket name.
   * @default - the stage's (`-c stage=dev|prod`, dev when none): Tunesmith-dev, Tunesmith-prod
   */
  readonly stackName?: string;
  /**
   * Folder with the built SPA.
   * @default `web/dist`, when it exists
   */
  readonly webAssetsPath?: string;
  /**
   * Where the cloud assembly is written.
   * @default - the CDK CLI's output directory, or a temporary one
   */
  readonly outdir?: string;
  /**
   * Extra context on top of `cdk.json`'s.
   * @default {}
   */
  readonly context?: Record<string, unknown>;
}

/**
 * Builds the CDK app with the Tunesmith stack and cdk-nag's AwsSolutions
 * checks. Used by `infra/bin/app.ts` and by the infra tests, so both see the
 * same feature flags (from `cdk.json`) and the same checks.
 */
export function buildApp(options: BuildAppOptions = {}): {
  app: App;
  stack: TunesmithStack;
  /** The stage's web ACL stack in us-east-1, on a stage with a web ACL. */
  edge?: EdgeProtectionStack;
} {
  const app = new App({
    outdir: options.outdir,
    context: {
      ...cdkJsonContext(),
      ...(options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}),
      ...options.context,
    },
  });
  const stage = stageNamed(app.node.tryGetContext('stage'), {
    mailSinkDomain: app.node.tryGetContext('mailSinkDomain'),
    waf: app.node.tryGetContext('waf'),
  });
  const stackName = options.stackName ?? stage.stackName;
  // A web ACL for CloudFront must be made in us-east-1: a companion stack, which the stage's stack
  // (in any region) reads through a parameter, so it is deployed first (decision 013).
  const edge = stage.waf
    ? new EdgeProtectionStack(app, `${stackName}-edge`, {
        description: `Tunesmith (${stage.name}): the web ACL on the CloudFront distribution of ${stackName}`,
        env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: WEB_ACL_REGION },
        protects: stackName,
      })
    : undefined;
  const stack = new TunesmithStack(app, stackName, {
    description: `Tunesmith (${stage.name}): AI music generation (CloudFront, HTTP API, Lambda, Step Functions, DynamoDB, Cognito, S3)`,
    webAssetsPath: options.webAssetsPath,
    stage,
    ...(edge ? { webAcl: edge } : {}),
  });
  if (edge) stack.addStackDependency(edge, 'The distribution names the web ACL the edge stack makes');
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  Aspects.of(app).add(new ServerlessChecks({ verbose: true }));
  return { app, stack, ...(edge ? { edge } : {}) };
}

/**
 * Builds the SPA when `dir` has no build yet (`npm run build -w web`), so a
 * `cdk deploy` never uploads an empty site that answers 403. `build` is the
 * command runner (tests pass their own).
 */
export function ensureWebBuild(
  dir: string,
  build: () => void = () =>
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: repoRoot, stdio: 'inherit' }),
): 'built' | 'present' {
  if (existsSync(join(dir, 'index.html'))) return 'present';
  build();
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(`The web build did not produce ${dir}/index.html`);
  return 'built';
}

/** The feature flags in `cdk.json`; the CLI passes them too, tests get them only from here. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}
