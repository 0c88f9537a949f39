import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './build/precompress.ts';
import { prerenderPlugin, START_STEP } from './build/prerender.ts';

/** The chunks every page starts with (the group below, and the bundler's runtime). */
const STARTING_LIBRARIES = /(^|\/)(libraries|rolldown-runtime)-[\w-]+\.js$/;

export default defineConfig({
  plugins: [react(), tailwindcss(), prerenderPlugin(), precompressPlugin()],
  // The frames' copyright line is written in this year, and the app hydrates them with it (footer.tsx).
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Uppy formats sizes with this package; ours writes them as the rest of the product does.
      '@transloadit/prettier-bytes': fileURLToPath(new URL('./src/lib/prettier-bytes.ts', import.meta.url)),
    },
  },
  build: {
    modulePreload: {
      // Every browser the build targets with module preloading has it natively; one without it
      // (Safari before 17) still loads every module through its import, only unhinted.
      polyfill: false,
      // A page's code asks for its chunks ahead (one link each); the libraries every page starts
      // with are loaded before any page's code is asked for, so asking for them again is only work
      // for the main thread. Leaving one out never breaks a page: its import still loads it.
      // The shell's own hints stay: they are what it starts with (a frame leaves them to /boot.js).
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'html' ? deps : deps.filter((dep) => !STARTING_LIBRARIES.test(dep)),
    },
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Seven characters of hash (42 bits, the fewest the bundler allows for this many chunks)
        // tell a file's versions apart; the first chunk names every chunk a page may load, so each
        // character more is bytes on every first visit.
        entryFileNames: 'assets/[name]-[hash:7].js',
        chunkFileNames: 'assets/[name]-[hash:7].js',
        codeSplitting: {
          // The libraries every page starts with, in one chunk that ends with
          // src/start-react.ts, which runs React's own code (then only src/lib/cn.ts, a function
          // nearly every page imports, kept out of a chunk of its own): a prerendered page's
          // loader (public/boot.js) runs it in a task before the app's module.
          groups: [
            {
              name: START_STEP,
              test: /node_modules[\\/](react-dom|scheduler|react-router|@tanstack)[\\/]|src[\\/](start-react|lib[\\/]cn)\.ts$/,
            },
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
