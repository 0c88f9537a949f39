import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { startLocalCloud } from '../../local/src/cloud';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The first admin the local cloud created. */
    admin: { username: string; password: string };
    /** The local cloud's environment, for arranging data directly (a user's plan). */
    cloudEnv: Record<string, string>;
  }
}

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Boots the whole local cloud once for the browser journeys, serving the built
 * SPA and the API on one origin. `npm test` builds the SPA first; a direct
 * vitest run builds it here when it is missing.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(webDir, 'dist', 'index.html'))) {
    // As `npm test` builds it. Vite takes the bundle's NODE_ENV from the process, where vitest set
    // it to `test`: React's development build (and its warnings) would reach the journeys.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root: webDir, logLevel: 'warn', mode: 'production' });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'tunesmith-e2e-'));
  const cloud = await startLocalCloud({
    port: 0,
    dataDir,
    fresh: true,
    persist: false,
    web: 'static',
    quiet: true,
  });
  project.provide('baseUrl', cloud.url);
  project.provide('admin', cloud.admin);
  project.provide('cloudEnv', { ...cloud.env });
  return async () => {
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
