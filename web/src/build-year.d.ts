/** The year the SPA (and its prerendered frames) was built in: `define` in vite.config.ts and vitest.config.ts. */
declare const __BUILD_YEAR__: number;
