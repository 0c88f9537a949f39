// A module customization hook for `npm start` (registered by start.ts): the
// installed packages' ES modules load as Node itself loads them. tsx, which
// runs our TypeScript, otherwise rewrites every ES module that contains an
// `import(` and attaches a source map to it, installed packages included:
// Vite's chunks alone then take about a second longer to import, and the
// page waits for Vite. Installed packages are plain JavaScript and need none
// of that; our own files (workspace packages resolve to their real paths,
// outside node_modules) still go through tsx.
import { readFile } from 'node:fs/promises';

const installedModule = /^file:\/\/.*\/node_modules\/.*\.m?js$/;

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (context.format === 'module' && installedModule.test(url)) {
    return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
  }
  return nextLoad(url, context);
}
