import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain module customization hook, without type declarations
import { load } from './installed-packages.mjs';

type Load = (
  url: string,
  context: { format?: string },
  nextLoad: (url: string, context: { format?: string }) => unknown,
) => Promise<{ format: string; source: Buffer; shortCircuit?: boolean }>;
const hook = load as Load;

const require = createRequire(import.meta.url);
/** An ES module file of an installed package. */
const viteEntry = path.join(path.dirname(require.resolve('vite/package.json')), 'dist', 'node', 'index.js');

describe('the installed-packages load hook', () => {
  it("loads an installed package's ES module as it is on disk, without the next loader", async () => {
    const url = pathToFileURL(viteEntry).href;
    const nextLoad = vi.fn();

    const loaded = await hook(url, { format: 'module' }, nextLoad);

    expect(nextLoad).not.toHaveBeenCalled();
    expect(loaded.format).toBe('module');
    expect(loaded.shortCircuit).toBe(true);
    expect(Buffer.from(loaded.source).equals(readFileSync(viteEntry))).toBe(true);
  });

  it('leaves our own files, CommonJS and other formats to the next loader (tsx)', async () => {
    const next = { format: 'module', source: Buffer.from('rewritten') };
    const nextLoad = vi.fn(async () => next);
    const ours = pathToFileURL(path.resolve('local/src/cloud.ts')).href;
    const workspace = pathToFileURL(path.resolve('functions/src/lambdas/jobs.ts')).href;
    const commonjs = pathToFileURL(require.resolve('@aws-sdk/client-dynamodb')).href;

    expect(await hook(ours, { format: 'module' }, nextLoad)).toBe(next);
    expect(await hook(workspace, { format: 'module' }, nextLoad)).toBe(next);
    expect(await hook(commonjs, { format: 'commonjs' }, nextLoad)).toBe(next);
    expect(await hook('node:fs', { format: 'builtin' }, nextLoad)).toBe(next);
    expect(nextLoad).toHaveBeenCalledTimes(4);
  });
});
