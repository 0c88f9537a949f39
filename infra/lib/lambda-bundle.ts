import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, type BuildResult, buildSync, type Metafile } from 'esbuild';
import { lambdaEntry, repoRoot } from './paths';

const shim = (name: string) => fileURLToPath(new URL(`./bundle-shims/${name}.ts`, import.meta.url));

/**
 * The ES module entry of an SDK package as the DynamoDB client (which every
 * function bundles) resolves it. The credentials shim lives in `infra/`,
 * whose own copy of the provider may sit on another `@aws-sdk/core` than the
 * clients': resolved from there, every bundle would carry two SDK cores.
 */
function besideTheClients(name: string): string {
  const fromFunctions = createRequire(join(repoRoot, 'functions', 'package.json'));
  const fromClient = createRequire(fromFunctions.resolve('@aws-sdk/client-dynamodb'));
  const manifest = fromClient.resolve(`${name}/package.json`);
  const { module } = JSON.parse(readFileSync(manifest, 'utf8')) as { module: string };
  return join(dirname(manifest), module);
}

/** The file Lambda loads: `index.handler` and friends resolve to it. */
export const BUNDLE_ENTRY_FILE = 'index.mjs';

/**
 * How a Lambda entry is bundled, for CDK (NodeFunction) and for `npm run
 * bench`, which measures the same output. An ES module for Node.js 24 with the
 * AWS SDK v3 clients inside (the runtime's copy drifts and is slower to
 * load), minified, with source maps that name files and lines but carry no
 * sources. Code splitting keeps what a route loads with `await import()`
 * (Stripe, the rarer AWS clients) out of the cold start: it is read from its
 * own chunk on first use. Shims drop code a Lambda never runs (see
 * `bundle-shims/`).
 */
export function lambdaBuildOptions(entryFile: string, outdir: string): BuildOptions & { metafile: true } {
  return {
    entryPoints: { index: entryFile },
    outdir,
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    mainFields: ['module', 'main'],
    // CommonJS dependencies call require(), which ESM output lacks.
    banner: {
      js: "import { createRequire as topLevelCreateRequire } from 'node:module'; const require = topLevelCreateRequire(import.meta.url);",
    },
    minify: true,
    sourcemap: true,
    // Stack traces need file names and lines, not the sources: keeps bundles small.
    sourcesContent: false,
    alias: {
      '@aws-sdk/credential-provider-node': shim('lambda-credentials'),
      '@aws-sdk/credential-provider-env': besideTheClients('@aws-sdk/credential-provider-env'),
      bowser: shim('no-browser-user-agent'),
      'mnemonist/lru-cache': shim('endpoint-cache-lru'),
    },
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  };
}

/**
 * The audio worker threads' entry (functions/src/adapters/audio/audio-workers.ts
 * starts `audio-worker.mjs` beside the code that starts it): a bundle that
 * carries the pool carries its worker.
 */
const AUDIO_WORKER = {
  name: 'audio-worker',
  file: join(repoRoot, 'functions/src/adapters/audio/audio-worker.ts'),
  pool: 'functions/src/adapters/audio/audio-workers.ts',
};

/** Bundles an entry (a name under `functions/src/lambdas/`, or a file) into `outdir`, emptied first. */
export function bundleLambda(entry: string, outdir: string): BuildResult<{ metafile: true }> {
  const empty = () => {
    rmSync(outdir, { recursive: true, force: true });
    mkdirSync(outdir, { recursive: true });
  };
  empty();
  const options = lambdaBuildOptions(entry.includes('/') ? entry : lambdaEntry(entry), outdir);
  const built = buildSync(options);
  if (!Object.keys(built.metafile.inputs).some((input) => input.endsWith(AUDIO_WORKER.pool))) return built;
  // Built again with the worker beside the entry, so their shared code is split into chunks once.
  empty();
  return buildSync({
    ...options,
    entryPoints: { ...(options.entryPoints as object), [AUDIO_WORKER.name]: AUDIO_WORKER.file },
  });
}

/**
 * The most a route group's cold start may read (decision 042): 400 KB as the
 * bench counts them (KiB). What a group's first request does not need loads
 * later, with `await import()`; infra/test/bundle-budget.test.ts holds every
 * group to this.
 */
export const COLD_START_BUDGET_BYTES = 400 * 1024;

/** The bundle's entry file and every chunk it imports statically: what a cold start reads. */
export function coldStartFiles(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || !outputs[path]) return;
    seen.add(path);
    for (const imported of outputs[path].imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  const entry = Object.keys(outputs).find((path) => path.endsWith(`/${BUNDLE_ENTRY_FILE}`));
  if (entry) visit(entry);
  return [...seen];
}

/** The source modules (metafile input paths) that {@link coldStartFiles} carry. */
export function coldStartInputs(metafile: Metafile): string[] {
  return coldStartFiles(metafile).flatMap((path) => Object.keys(metafile.outputs[path]?.inputs ?? {}));
}

/** Bytes of {@link coldStartFiles}. */
export const coldStartBytes = (metafile: Metafile): number =>
  coldStartFiles(metafile).reduce((sum, path) => sum + (metafile.outputs[path]?.bytes ?? 0), 0);

/** Bytes of all the bundle's code (entry and every chunk, lazy ones included; no source maps). */
export const totalBytes = (metafile: Metafile): number =>
  Object.entries(metafile.outputs)
    .filter(([path]) => path.endsWith('.mjs'))
    .reduce((sum, [, output]) => sum + output.bytes, 0);

const built = new Map<string, string>();
process.once('exit', () => {
  for (const dir of built.values()) rmSync(dir, { recursive: true, force: true });
});

/**
 * Copies the bundle of `entryName` into `outputDir`, building it once per
 * process: several functions share an entry (the workflow's steps), and one
 * synth should not run esbuild for each.
 */
export function stageLambdaBundle(entryName: string, outputDir: string): void {
  let dir = built.get(entryName);
  if (!dir || readdirSync(dir).length === 0) {
    dir = mkdtempSync(join(tmpdir(), `tunesmith-${entryName}-`));
    bundleLambda(entryName, dir);
    built.set(entryName, dir);
  }
  cpSync(dir, outputDir, { recursive: true });
}
