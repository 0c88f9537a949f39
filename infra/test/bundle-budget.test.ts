import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RouteGroup, routeGroups } from '@tunesmith/shared/routes';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLambda, COLD_START_BUDGET_BYTES, coldStartBytes, coldStartInputs } from '../lib/lambda-bundle';

/**
 * Each route group's bundle as CDK deploys it, read from esbuild's metafile:
 * what its cold start reads stays within the budget, and what decision 042
 * loads on first use stays out of the cold start (while still in the bundle,
 * so a renamed or dropped module fails here rather than passing unnoticed).
 * Sizes are the bundler's output, the same on every run; import times are the
 * bench's (`npm run bench -- bundles`).
 */
const deferred: Record<RouteGroup, readonly string[]> = {
  // Sign-up, sign-in and account changes; deleting an account loads Stripe and the jobs function's client.
  auth: ['functions/src/adapters/cognito/operations.ts', 'functions/src/adapters/stripe/stripe-payments.ts'],
  // Visitors carry no session: the sessions' code loads for the first request that has a session cookie.
  catalog: ['functions/src/lambdas/session-wiring.ts', 'node_modules/aws-jwt-verify/'],
  // Reading the library is the cold start's; starting a generation, changing a track and exports are not.
  generation: [
    'functions/src/http/routes/generation.ts',
    'functions/src/http/routes/library-changes.ts',
    'functions/src/http/routes/exports.ts',
    'functions/src/adapters/fal/fal-provider.ts',
    'functions/src/adapters/cognito/operations.ts',
    'node_modules/@aws-lambda-powertools/metrics/',
  ],
  uploads: ['functions/src/adapters/cognito/operations.ts'],
  billing: ['functions/src/adapters/cognito/operations.ts', 'node_modules/stripe/'],
  // The workflow's steps come with the fal webhook; the decoders of a FLAC or MP3 master only with one.
  webhooks: [
    'node_modules/@aws-lambda-powertools/metrics/',
    'node_modules/stripe/',
    'node_modules/@wasm-audio-decoders/flac/',
    'node_modules/mpg123-decoder/',
  ],
  'admin-session': ['functions/src/adapters/cognito/operations.ts'],
  // The dashboard is the cold start's; users, plans, settings and tracks load with the first request for one.
  admin: [
    'functions/src/lambdas/admin-wiring.ts',
    'functions/src/http/routes/admin.ts',
    'functions/src/adapters/cognito/operations.ts',
  ],
  developers: ['functions/src/adapters/cognito/operations.ts'],
  'api-v1': ['functions/src/http/openapi.gen.ts'],
  community: ['functions/src/adapters/cognito/operations.ts'],
};

/** In no group's bundle at all: the bundling shims and zod/mini stand in for them. */
const absent = [
  'node_modules/mnemonist/',
  'node_modules/zod/v4/classic/',
  'infra/node_modules/@aws-sdk/core/',
];

describe('route-group bundles', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'tunesmith-budget-'));
  const metafiles = new Map<RouteGroup, Metafile>();

  beforeAll(() => {
    for (const group of routeGroups) metafiles.set(group, bundleLambda(group, join(outDir, group)).metafile);
  }, 120_000);

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  const metafileOf = (group: RouteGroup) => metafiles.get(group) as Metafile;
  const matching = (inputs: string[], module: string) => inputs.filter((input) => input.includes(module));

  it.each(routeGroups)('%s: the cold start is within the budget', (group) => {
    expect(coldStartBytes(metafileOf(group))).toBeLessThanOrEqual(COLD_START_BUDGET_BYTES);
  });

  it.each(routeGroups)('%s: what loads on first use stays out of the cold start', (group) => {
    const metafile = metafileOf(group);
    const cold = coldStartInputs(metafile);
    const all = Object.keys(metafile.inputs);
    for (const module of deferred[group]) {
      expect(matching(all, module), `${module} is in the bundle`).not.toEqual([]);
      expect(matching(cold, module), `${module} stays out of the cold start`).toEqual([]);
    }
  });

  it.each(routeGroups)('%s: carries none of what the shims and zod/mini replace', (group) => {
    const all = Object.keys(metafileOf(group).inputs);
    for (const module of absent) expect(matching(all, module), module).toEqual([]);
  });
  // Not a route group, but Finish's cold start stands between a song and its first play.
  it('workflow: the stems zip library loads with the first stems set, not at every cold start', () => {
    const { metafile } = bundleLambda('workflow', join(outDir, 'workflow'));
    const archiver = 'node_modules/archiver/';
    expect(matching(Object.keys(metafile.inputs), archiver), 'archiver is in the bundle').not.toEqual([]);
    expect(matching(coldStartInputs(metafile), archiver)).toEqual([]);
  });
});
