import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressPlugin } from './build/precompress.ts';
import { prerenderPlugin } from './build/prerender.ts';

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
