/**
 * Runs first (main.tsx imports it before anything else). zod builds a fast
 * parser for object schemas with `new Function`, after probing whether eval is
 * allowed; under our content security policy (`script-src 'self'`, no
 * `unsafe-eval`) the probe fails as it should, but the browser still reports a
 * CSP violation for it on every page that loads a schema. In jitless mode zod
 * never probes and parses without generated code. zod reads this global when
 * it loads (zod/v4/core/core.js), so it is set before any schema chunk loads,
 * without loading zod itself.
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};
