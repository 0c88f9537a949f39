import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Uppy formats sizes with this package; ours writes them as the rest of the product does.
      '@transloadit/prettier-bytes': fileURLToPath(new URL('./src/lib/prettier-bytes.ts', import.meta.url)),
    },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
    // Each screen query waits up to 5 s (testing/setup.ts); a test makes several, beside the emulators.
    testTimeout: 20_000,
    restoreMocks: true,
    unstubGlobals: true,
    // Run through Vite, so that the alias above reaches Uppy's own imports.
    server: { deps: { inline: [/@uppy\//] } },
  },
});
