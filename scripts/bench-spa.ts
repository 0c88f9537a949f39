/**
 * `npm run bench -- spa`: what the SPA makes a browser download.
 *
 * - SPA initial JS: every script and modulepreload in the built index.html
 *   and everything its entry imports statically, hinted or not, gzip -9, file by file, and what it is made of (per package, from the
 *   source maps: the part each package takes of the raw bytes, and its size
 *   gzipped on its own);
 * - a visitor's `/`: the initial JS plus the home route's chunk and what it
 *   imports statically (what the landing page waits for);
 * - the largest chunks that load later, on the pages that use them.
 *
 * The build goes to a directory of its own, with hidden source maps (no
 * `sourceMappingURL` comment, so the files are byte for byte what ships).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as viteBuild } from 'vite';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const gzip = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One source map segment's fields (base64 VLQ), relative to the previous segment. */
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/** What a package (or the app's own code) is called in the report. */
function owner(source: string): string {
  const inPackage = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1] as string;
  if (source.includes('/shared/src/')) return 'shared/ (our code)';
  if (source.includes('/web/src/')) return 'web/src (our code)';
  return '(bundler runtime)';
}

/** The generated code of a chunk, split by the package each piece comes from. */
function codeByOwner(code: string, map: { sources: string[]; mappings: string }): Map<string, string> {
  const parts = new Map<string, string>();
  const lines = code.split('\n');
  let source = 0;
  map.mappings.split(';').forEach((mappings, lineIndex) => {
    const line = lines[lineIndex] ?? '';
    const segments: { column: number; source: number | undefined }[] = [];
    let column = 0;
    for (const segment of mappings.split(',')) {
      if (!segment) continue;
      const fields = decodeSegment(segment);
      column += fields[0] ?? 0;
      if (fields.length > 1) source += fields[1] ?? 0;
      segments.push({ column, source: fields.length > 1 ? source : undefined });
    }
    segments.forEach(({ column: start, source: index }, i) => {
      const end = segments[i + 1]?.column ?? line.length;
      const name = index === undefined ? '(bundler runtime)' : owner(map.sources[index] ?? '');
      parts.set(name, (parts.get(name) ?? '') + line.slice(start, end));
    });
  });
  return parts;
}

export async function spaReport(webDir: string, say: (line?: string) => void): Promise<void> {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const outDir = mkdtempSync(join(tmpdir(), 'tunesmith-spa-'));
  try {
    await viteBuild({
      root: webDir,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: 'hidden', manifest: true },
    });
    const read = (file: string) => readFileSync(join(outDir, file.replace(/^\//, '')));
    const html = read('index.html').toString('utf8');
    const manifest = JSON.parse(read('.vite/manifest.json').toString('utf8')) as Record<
      string,
      ManifestChunk
    >;
    const closure = (key: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(key) || !manifest[key]) return seen;
      seen.add(key);
      for (const imported of manifest[key].imports ?? []) closure(imported, seen);
      return seen;
    };
    const files = (keys: Set<string>) => [...keys].map((key) => (manifest[key] as ManifestChunk).file);
    // What the shell runs before any page's code: its scripts and hints, and everything the entry
    // imports statically, hinted or not (a prerendered page's first step, src/start-react.ts, is
    // an entry of its own, part of this closure).
    const entry = Object.keys(manifest).find(
      (key) => key === 'index.html' && manifest[key]?.isEntry,
    ) as string;
    const initial = [
      ...new Set([
        ...[...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map(
          (m) => (m[1] as string).replace(/^\//, ''),
        ),
        ...files(closure(entry)),
      ]),
    ];
    const size = (file: string) => ({ raw: read(file).length, gzip: gzip(read(file)) });
    const total = (files: string[]) =>
      files.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });

    const initialSize = total(initial);
    say(
      `SPA initial JS (${initial.length} files):          ${initialSize.gzip} B ${kb(initialSize.gzip)} gzip (${kb(initialSize.raw)} raw)`,
    );
    for (const file of initial) say(`  ${file.padEnd(40)} ${kb(size(file).gzip).padStart(9)} gzip`);

    say('  made of (share of the raw bytes; gzip of that part alone):');
    const parts = new Map<string, string>();
    for (const file of initial) {
      if (!existsSync(join(outDir, `${file}.map`))) {
        // A chunk with no source map (the bundler's runtime) is the bundler's own.
        parts.set('(bundler runtime)', (parts.get('(bundler runtime)') ?? '') + read(file).toString('utf8'));
        continue;
      }
      const map = JSON.parse(read(`${file}.map`).toString('utf8'));
      for (const [name, code] of codeByOwner(read(file).toString('utf8'), map)) {
        parts.set(name, (parts.get(name) ?? '') + code);
      }
    }
    const rows = [...parts].map(([name, code]) => ({ name, raw: code.length, gzip: gzip(code) }));
    for (const row of rows.sort((a, b) => b.raw - a.raw)) {
      const share = `${((100 * row.raw) / initialSize.raw).toFixed(0)}%`;
      say(`    ${row.name.padEnd(28)} ${share.padStart(4)}  ${kb(row.gzip).padStart(9)} gzip alone`);
    }

    // The landing page: the home route's chunk and its static imports, beyond the initial files.
    const loadedFirst = new Set(initial);
    const home = Object.keys(manifest).find((key) => key.endsWith('src/app/routes/home.tsx'));
    if (home) {
      const landing = files(closure(home)).filter((file) => !loadedFirst.has(file));
      const landingSize = total(landing);
      say(
        `A visitor's / (initial + home route, ${initial.length + landing.length} files): ` +
          `${kb(initialSize.gzip + landingSize.gzip)} gzip (${kb(landingSize.gzip)} beyond the initial JS)`,
      );
    }

    const later = Object.values(manifest)
      .map((chunk) => chunk.file)
      .filter((file) => file.endsWith('.js') && !loadedFirst.has(file))
      .map((file) => ({ file, ...size(file) }))
      .sort((a, b) => b.gzip - a.gzip);
    say(`Chunks that load later (${later.length}), the largest:`);
    for (const chunk of later.slice(0, 6))
      say(`  ${chunk.file.padEnd(40)} ${kb(chunk.gzip).padStart(9)} gzip`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
