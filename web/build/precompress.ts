import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text formats worth compressing; media and fonts are compressed already. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.webmanifest',
]);

/** As CloudFront: files under 1,000 bytes are sent as they are. */
const MIN_BYTES = 1000;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside
 * every compressible file of the build at least 1,000 bytes long, when smaller
 * than the file, so the local static server (local/src/static.ts) answers as
 * CloudFront does at the edge. The deployments leave them out (infra/lib/web.ts).
 */
export function precompress(dir: string): number {
  let written = 0;
  for (const file of [...files(dir)]) {
    if (!COMPRESSIBLE.has(extname(file).toLowerCase())) continue;
    if (statSync(file).size < MIN_BYTES) continue;
    const data = readFileSync(file);
    const br = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    const gz = gzipSync(data, { level: 9 });
    if (br.length < data.length) {
      writeFileSync(`${file}.br`, br);
      written++;
    }
    if (gz.length < data.length) {
      writeFileSync(`${file}.gz`, gz);
      written++;
    }
  }
  return written;
}

/** The Vite plugin: precompresses the output directory once the bundle is written. */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tunesmith-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompress(outDir);
      },
    },
  };
}
