import { fileURLToPath } from 'node:url';

/** The monorepo root: bundling resolves workspace packages and the lock file from here. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The Lambda entry file of a route group (or another entry such as `seed`). */
export const lambdaEntry = (name: string): string =>
  fileURLToPath(new URL(`../../functions/src/lambdas/${name}.ts`, import.meta.url));

/** Where `npm run build -w web` writes the SPA. */
export const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));
