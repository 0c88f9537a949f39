import { defineConfig } from 'vitest/config';

/**
 * One run for every suite. Projects:
 * - unit: shared, functions and local code with in-memory fakes
 * - integration: handlers through the local API adapter against the emulators
 * - security: the outside probe's cases kept as tests (route × actor matrix from
 *   the manifest, odd inputs, sessions, lockout, spoofed addresses, webhooks)
 * - infra: CDK template assertions and cdk-nag
 * - web: component and route tests (happy-dom)
 * - e2e: browser journeys in headless Chromium against the local cloud
 */
// Dates are shown in the reader's time zone; the tests' expected dates are UTC's, wherever they run
// (a noon-UTC date is the next day east of UTC+12). Every test worker inherits this.
process.env.TZ = 'UTC';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/src/**/*.test.ts',
            'functions/src/**/*.test.ts',
            'local/src/**/*.test.ts',
            // The integration suite's own helpers (targets, the stage's mail sink) and the repo scripts.
            'functions/test/support/**/*.test.ts',
            'scripts/**/*.test.ts',
            // The SPA's build plugins (Node code, not the app).
            'web/build/**/*.test.ts',
            // The developer examples that need no server (the rest run in the integration suite).
            'docs/examples/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          // The functions' logger and metrics read these once, when first imported.
          env: { LOG_LEVEL: 'silent', POWERTOOLS_METRICS_DISABLED: 'true' },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['functions/test/**/*.int.test.ts', 'local/test/**/*.int.test.ts'],
          globalSetup: ['local/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'security',
          include: ['functions/test/security/**/*.security.test.ts'],
          globalSetup: ['local/test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['infra/test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      './web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.spec.ts'],
          globalSetup: ['web/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
