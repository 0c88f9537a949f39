import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFunction } from '../lib/node-function';

/** One real esbuild run, so the bundling settings are proven on an actual route-group bundle. */
describe('NodeFunction bundle (esbuild)', () => {
  let outdir: string;
  let bundleDir: string;

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'tunesmith-bundle-'));
    const app = new App({ outdir });
    new NodeFunction(new Stack(app, 'BundleTest'), 'Catalog', { entryName: 'catalog' });
    app.synth();
    const dirs = readdirSync(outdir)
      .filter((name) => name.startsWith('asset.'))
      .map((name) => join(outdir, name))
      .filter((dir) => existsSync(join(dir, 'index.mjs')));
    expect(dirs).toHaveLength(1);
    bundleDir = dirs[0] as string;
  }, 120_000);

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  const chunks = () =>
    readdirSync(join(bundleDir, 'chunks'))
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => readFileSync(join(bundleDir, 'chunks', name), 'utf8'));
  /** The entry file and the chunks it imports statically: what a cold start loads. */
  const coldStart = () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(join(bundleDir, file), 'utf8');
      // Static imports only: `import(...)` is what a request loads on first use.
      for (const match of code.matchAll(/(?:from|import)\s*["'](\.\/[^"']+\.mjs)["']/g))
        visit(join(dirname(file), match[1] as string));
    };
    visit('index.mjs');
    return [...seen].map((file) => readFileSync(join(bundleDir, file), 'utf8')).join('\n');
  };

  it('is a minified ES module that defines require for CommonJS dependencies', () => {
    const code = readFileSync(join(bundleDir, 'index.mjs'), 'utf8');
    expect(code.startsWith("import { createRequire as topLevelCreateRequire } from 'node:module';")).toBe(
      true,
    );
    // Minified: a few very long lines (template literals keep their own newlines).
    expect(code.length / code.split('\n').length).toBeGreaterThan(1000);
  });

  it('bundles the AWS SDK v3 clients instead of importing them from the runtime', () => {
    // The entry and its static chunks: the client may sit in a chunk the lazily loaded code shares.
    const code = coldStart();
    // Error messages quote `[require("@aws-sdk/...")]`; real imports would not follow a bracket.
    expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
    expect(code).not.toMatch(/(?<!\[)(require|import)\(["']@aws-sdk\//);
    expect(code).toContain('DynamoDB');
  });

  it('leaves services a request may never call out of the cold start, in chunks loaded on first use', () => {
    // Cognito is only called to sign in, refresh or change an account; access tokens are verified locally.
    const cold = coldStart();
    expect(cold.includes('AWSCognitoIdentityProviderService')).toBe(false);
    expect(chunks().some((code) => code.includes('AWSCognitoIdentityProviderService'))).toBe(true);
    expect(cold.includes('DynamoDBClient')).toBe(true);
  });

  it("carries only the environment's credentials, which is where Lambda puts the role's", () => {
    const all = [readFileSync(join(bundleDir, 'index.mjs'), 'utf8'), ...chunks()].join('\n');
    expect(all.includes('AWS_SESSION_TOKEN')).toBe(true);
    // Profiles, SSO and process credentials of the full default chain are left out.
    expect(all.includes('credential_process')).toBe(false);
    expect(all.includes('sso_start_url')).toBe(false);
  });

  it('ships a source map without the sources', () => {
    const map = JSON.parse(readFileSync(join(bundleDir, 'index.mjs.map'), 'utf8')) as {
      sourcesContent?: unknown;
    };
    expect(map.sourcesContent ?? []).toEqual([]);
  });

  it('loads and answers through the real middleware stack', async () => {
    process.env.TABLE_NAME ??= 'bundle-test';
    process.env.PUBLIC_ORIGIN ??= 'https://bundle-test.example';
    process.env.LOG_LEVEL = 'silent';
    const mod = (await import(pathToFileURL(join(bundleDir, 'index.mjs')).href)) as {
      handler: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }>;
    };
    const response = await mod.handler(
      {
        version: '2.0',
        rawPath: '/api/nothing-here',
        routeKey: '$default',
        headers: {},
        requestContext: { http: { method: 'GET', path: '/api/nothing-here' } },
      },
      { awsRequestId: 'bundle-test' },
    );
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toHaveProperty('message');
  });
});

/** Several functions in one synth: each entry gets its own bundle, built once. */
describe('NodeFunction bundles in one stack', () => {
  it('gives each entry its own asset and functions of one entry the same one', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'tunesmith-bundles-'));
    try {
      const app = new App({ outdir });
      const stack = new Stack(app, 'BundlesTest');
      new NodeFunction(stack, 'Catalog', { entryName: 'catalog' });
      new NodeFunction(stack, 'AdminSession', { entryName: 'admin-session' });
      new NodeFunction(stack, 'CatalogAgain', { entryName: 'catalog', handler: 'handler' });
      const template = app.synth().getStackByName('BundlesTest').template as {
        Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>;
      };
      const keyOf = (prefix: string) =>
        Object.entries(template.Resources).find(
          ([id, resource]) => id.startsWith(prefix) && resource.Type === 'AWS::Lambda::Function',
        )?.[1].Properties.Code?.S3Key;
      expect(keyOf('Catalog')).toBeDefined();
      expect(keyOf('AdminSession')).toBeDefined();
      expect(keyOf('AdminSession')).not.toBe(keyOf('Catalog'));
      expect(keyOf('CatalogAgain')).toBe(keyOf('Catalog'));
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 120_000);
});
