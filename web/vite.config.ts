import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './build/precompress.ts';
import { prerenderPlugin } from './build/prerender.ts';

/** The chunks of the libraries the app's entry starts with (the groups below). */
const STARTING_LIBRARIES = /(^|\/)(react-dom|router|query|rolldown-runtime)-[\w-]+\.js$/;

export default defineConfig({
  plugins: [react(), tailwindcss(), prerenderPlugin(), precompressPlugin()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Uppy formats sizes with this package; ours writes them as the rest of the product does.
      '@transloadit/prettier-bytes': fileURLToPath(new URL('./src/lib/prettier-bytes.ts', import.meta.url)),
    },
  },
  build: {
    modulePreload: {
      // A page's code asks for its chunks ahead (one link each); the libraries every page starts
      // with are loaded before any page's code is asked for, so asking for them again is only work
      // for the main thread. Leaving one out never breaks a page: its import still loads it.
      resolveDependencies: (_file, deps) => deps.filter((dep) => !STARTING_LIBRARIES.test(dep)),
    },
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The libraries every page starts with, each a chunk of its own, so a
          // prerendered page's loader (public/boot.js) can run them one at a
          // time rather than in one long task.
          groups: [
            { name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
      treeshake: {
        // Building a zod schema has no side effects; pages that only use the
        // helpers beside a shared schema should not ship zod.
        manualPureFunctions: ['z'],
      },
    },
  },
});
