// The local cloud's own TypeScript (local/, functions/, shared/), compiled once into plain
// ES modules that Node loads without a loader hook. Run through tsx, every module of a start
// is resolved and rewritten on a hook thread beside this one: on two cores that thread's
// second of work competes with the emulators booting. A build is kept in
// node_modules/.cache/tunesmith-local and used again while its inputs are unchanged (their
// contents hashed: ~220 files, about 20 ms); a change to any of them, to the lockfile
// or to this file builds again (about a third of a second with esbuild).
//
// What the build keeps as it was: installed packages stay outside it, imported by the path
// Node resolves them to from the importing file (a workspace's own node_modules included), so
// they load as they would unbundled; `import.meta.url` is each source file's own URL, so
// paths next to a source (the Java launcher, the state machine, the WebAssembly files) are
// found; every dynamic import is a chunk of its own, loaded when it is asked for, not at start.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Files outside the module graph that change what a build resolves to. */
const settingsFiles = [
  'package-lock.json',
  'tsconfig.json',
  'shared/package.json',
  'functions/package.json',
  'local/package.json',
];

/** How many builds are kept besides those in use: the newest, and one before it. */
const KEPT_BUILDS = 2;

/**
 * The compiled module for each of `entries` (name to source path, relative to `root`), built
 * into a directory of `cacheDir` unless the latest build there has the same inputs.
 *
 * @param {{ root: string, entries: Record<string, string>, cacheDir: string, settings?: string[] }} options
 * @returns {Promise<{ files: Record<string, string>, built: boolean }>}
 */
export async function compile(options) {
  const { root, entries, cacheDir } = options;
  const settings = options.settings ?? [];
  const key = buildKey(root, entries, settings);
  const latestFile = path.join(cacheDir, 'latest.json');
  const latest = readJson(latestFile);
  if (latest && latest.key === key && typeof latest.dir === 'string') {
    const dir = path.join(cacheDir, latest.dir);
    const manifest = readJson(path.join(dir, 'manifest.json'));
    if (manifest && sameInputs(manifest.inputs) && markInUse(dir)) {
      return { files: entryFiles(dir, entries), built: false };
    }
  }

  const name = `build-${Date.now()}-${process.pid}`;
  const dir = path.join(cacheDir, name);
  const staging = `${dir}.partial`;
  mkdirSync(cacheDir, { recursive: true });
  const { build } = await import('esbuild');
  let result;
  try {
    result = await build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(
        Object.entries(entries).map(([entry, file]) => [entry, path.join(root, file)]),
      ),
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      // Resolve as Node does: no bundler-only `module` field or condition.
      mainFields: ['main'],
      conditions: [],
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [installedPackagesOutside(), ownUrls()],
    });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const inputs = Object.keys(result.metafile.inputs)
    .map((input) => path.resolve(root, input))
    .concat(settings.map((file) => path.resolve(root, file)))
    .sort()
    .map((file) => [file, digestOf(file)]);
  writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify({ inputs }));
  renameSync(staging, dir);
  markInUse(dir);
  // Another start building at the same time may win; either build is whole.
  const pointer = `${latestFile}.${process.pid}`;
  writeFileSync(pointer, JSON.stringify({ key, dir: name }));
  renameSync(pointer, latestFile);
  prune(cacheDir, name);
  return { files: entryFiles(dir, entries), built: true };
}

/** The compiled module of `entry` (`start` or `serve`) of the local cloud. */
export async function localCloudEntry(entry) {
  const { files } = await compile({
    root: repoRoot,
    entries: { start: 'local/src/start.ts', serve: 'local/src/serve.ts' },
    cacheDir: path.join(repoRoot, 'node_modules', '.cache', 'tunesmith-local'),
    settings: settingsFiles,
  });
  const file = files[entry];
  if (!file) throw new Error(`No local cloud entry named ${entry}`);
  return file;
}

/** Installed packages are imported from where Node finds them, by their file URL. */
function installedPackagesOutside() {
  return {
    name: 'installed-packages-outside',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (
          args.pluginData === 'resolving' ||
          args.path.startsWith('@tunesmith/') ||
          args.path.startsWith('node:')
        ) {
          return undefined;
        }
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'resolving',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        // Node's built-in modules come back unresolved, and stay as they are. A file URL, not a
        // path: Node's ES module loader takes no Windows drive path as a specifier.
        if (!path.isAbsolute(resolved.path)) return { path: args.path, external: true };
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
    },
  };
}

/** Each of our source files keeps its own `import.meta.url`. */
function ownUrls() {
  return {
    name: 'own-urls',
    setup(build) {
      build.onLoad({ filter: /\.(?:[cm]?ts|tsx)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        return {
          contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
        };
      });
    },
  };
}

/** What a build depends on besides its inputs: this builder, esbuild, the entries. */
function buildKey(root, entries, settings) {
  const esbuildPackage = createRequire(import.meta.url).resolve('esbuild/package.json');
  return createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(readFileSync(esbuildPackage))
    .update(JSON.stringify({ root, entries, settings, node: process.versions.node }))
    .digest('hex')
    .slice(0, 16);
}

function digestOf(file) {
  try {
    return createHash('sha1').update(readFileSync(file)).digest('hex');
  } catch {
    return 'missing';
  }
}

function sameInputs(inputs) {
  return Array.isArray(inputs) && inputs.every(([file, digest]) => digestOf(file) === digest);
}

function entryFiles(dir, entries) {
  return Object.fromEntries(Object.keys(entries).map((entry) => [entry, path.join(dir, `${entry}.mjs`)]));
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Notes that this process runs `dir`'s modules: a process loads chunks long after it starts
 * (a route group's code on its first request), so a build is kept while a process that uses
 * it is alive. False when the build is gone (removed by another process in between).
 */
function markInUse(dir) {
  try {
    const users = path.join(dir, 'in-use');
    mkdirSync(users, { recursive: true });
    writeFileSync(path.join(users, String(process.pid)), '');
    return true;
  } catch {
    return false;
  }
}

/** Whether a process that used the build at `dir` still runs. */
function inUse(dir) {
  let pids;
  try {
    pids = readdirSync(path.join(dir, 'in-use'));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    if (Number(pid) === process.pid) return true;
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch (error) {
      // EPERM: alive, and someone else's.
      return error?.code === 'EPERM';
    }
  });
}

/**
 * Removes the builds no running process uses, but the newest (and partial ones left by a
 * start that died).
 */
function prune(cacheDir, current) {
  let names;
  try {
    names = readdirSync(cacheDir).filter((name) => name.startsWith('build-'));
  } catch {
    return;
  }
  const now = Date.now();
  const aged = names
    .map((name) => {
      try {
        return { name, at: statSync(path.join(cacheDir, name)).mtimeMs };
      } catch {
        return undefined;
      }
    })
    .filter((entry) => entry !== undefined)
    .sort((a, b) => b.at - a.at);
  const whole = aged.filter(({ name }) => !name.endsWith('.partial'));
  const keep = new Set([current, ...whole.slice(0, KEPT_BUILDS).map(({ name }) => name)]);
  for (const { name, at } of aged) {
    // A partial build younger than a minute may still be being written by another start.
    if (keep.has(name) || (name.endsWith('.partial') && now - at < 60_000)) continue;
    if (!name.endsWith('.partial') && inUse(path.join(cacheDir, name))) continue;
    rmSync(path.join(cacheDir, name), { recursive: true, force: true });
  }
}
