import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compile } from './compiled.mjs';

const localDir = fileURLToPath(new URL('..', import.meta.url));
const zodEntry = createRequire(import.meta.url).resolve('zod');

let project: string;
let cacheDir: string;

beforeEach(() => {
  // Inside the repository, so that installed packages resolve as they do for the real entries.
  project = mkdtempSync(path.join(localDir, '.compiled-test-'));
  cacheDir = path.join(project, 'cache');
  mkdirSync(path.join(project, 'src'));
  writeFileSync(
    path.join(project, 'src', 'entry.ts'),
    [
      "import { z } from 'zod';",
      "import { shout } from './helper';",
      'export const url: string = import.meta.url;',
      "export const loud = shout('hi');",
      'export const parsed = z.object({ n: z.number() }).parse({ n: 3 }).n;',
      "export const later = () => import('./later');",
    ].join('\n'),
  );
  writeFileSync(
    path.join(project, 'src', 'helper.ts'),
    'export const shout = (s: string): string => s.toUpperCase();',
  );
  writeFileSync(path.join(project, 'src', 'later.ts'), 'export const here: string = import.meta.url;');
});

afterEach(() => {
  rmSync(project, { recursive: true, force: true });
});

const build = () => compile({ root: project, entries: { entry: 'src/entry.ts' }, cacheDir });
/** Imports a built file afresh (a query makes it a new module each time). */
const load = async (file: string) =>
  import(/* @vite-ignore */ `${pathToFileURL(file).href}?at=${Math.random()}`);
const builds = () => readdirSync(cacheDir).filter((name) => name.startsWith('build-'));

describe('the compiled local cloud', () => {
  it('runs the TypeScript as Node modules, each source keeping its own import.meta.url', async () => {
    const { files, built } = await build();
    expect(built).toBe(true);
    const entry = files.entry as string;
    expect(entry.endsWith('entry.mjs')).toBe(true);

    const module = await load(entry);
    expect(module.url).toBe(pathToFileURL(path.join(project, 'src', 'entry.ts')).href);
    expect(module.loud).toBe('HI');
    expect(module.parsed).toBe(3);
    // A dynamic import is a chunk of its own, loaded when asked for.
    expect(readFileSync(entry, 'utf8')).not.toContain('later.ts');
    expect((await module.later()).here).toBe(pathToFileURL(path.join(project, 'src', 'later.ts')).href);
  });

  it('imports installed packages from where Node resolves them, by file URL, rather than copying them in', async () => {
    const { files } = await build();
    const source = readFileSync(files.entry as string, 'utf8');
    // The package's ES module entry, as Node's import resolves it (not its CommonJS one), by file URL.
    const imported = /from "(file:[^"]*\/node_modules\/zod\/[^"]+)"/.exec(source)?.[1] as string;
    expect(imported).toBeDefined();
    expect(path.dirname(fileURLToPath(imported))).toBe(path.dirname(zodEntry));
    expect(fileURLToPath(imported)).not.toBe(zodEntry);
    expect(source).not.toContain('ZodError');
  });

  it('uses the kept build while its inputs are unchanged, whatever their times', async () => {
    const first = await build();
    const future = new Date(Date.now() + 60_000);
    utimesSync(path.join(project, 'src', 'helper.ts'), future, future);

    const second = await build();

    expect(second.built).toBe(false);
    expect(second.files).toEqual(first.files);
    expect(builds()).toHaveLength(1);
  });

  it('builds again when a source changes, and runs the new code', async () => {
    const first = await build();
    writeFileSync(
      path.join(project, 'src', 'helper.ts'),
      "export const shout = (s: string): string => s + '!';",
    );

    const second = await build();

    expect(second.built).toBe(true);
    expect(second.files.entry).not.toBe(first.files.entry);
    expect((await load(second.files.entry as string)).loud).toBe('hi!');
  });

  it('builds again when a named setting file changes', async () => {
    writeFileSync(path.join(project, 'settings.json'), '{"a":1}');
    const withSettings = () =>
      compile({ root: project, entries: { entry: 'src/entry.ts' }, cacheDir, settings: ['settings.json'] });
    await withSettings();
    expect((await withSettings()).built).toBe(false);

    writeFileSync(path.join(project, 'settings.json'), '{"a":2}');

    expect((await withSettings()).built).toBe(true);
  });

  it('fails with the compiler message on broken code and keeps the last good build', async () => {
    const good = await build();
    writeFileSync(path.join(project, 'src', 'helper.ts'), 'export const shout = (s: string =>');

    await expect(build()).rejects.toThrow(/helper\.ts/);

    writeFileSync(
      path.join(project, 'src', 'helper.ts'),
      'export const shout = (s: string): string => s.toUpperCase();',
    );
    const again = await build();
    expect(again.built).toBe(false);
    expect(again.files).toEqual(good.files);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('removes old builds but the newest two and those a running process uses', async () => {
    const first = await build();
    const firstDir = path.basename(path.dirname(first.files.entry as string));
    // As if the first build had been used only by a process that has ended.
    const users = path.join(cacheDir, firstDir, 'in-use');
    rmSync(users, { recursive: true });
    mkdirSync(users);
    writeFileSync(path.join(users, '999999999'), '');
    const later: string[] = [];
    for (const n of [1, 2, 3]) {
      writeFileSync(
        path.join(project, 'src', 'helper.ts'),
        `export const shout = (s: string): string => s + '${n}';`,
      );
      later.push(path.basename(path.dirname((await build()).files.entry as string)));
    }

    // The first is neither among the newest two nor in use: removed. The oldest of the later
    // ones is not among the newest two either, but this process, alive, uses it: kept.
    expect(builds().sort()).toEqual(later.sort());
  });
});
