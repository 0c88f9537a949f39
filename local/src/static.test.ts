import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { contentSecurityPolicy } from '@tunesmith/shared/content-security-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../web/build/precompress';
import { accepts, createStaticHandler, securityHeaders } from './static';

/** A script long enough to be compressed (CloudFront and the build skip files under 1,000 bytes). */
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i}`))};\n`;

let root: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-static-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>spa</title>');
  // Prerendered pages (web/build/prerender.ts) for two of the three paths; /pricing has none here.
  mkdirSync(path.join(root, 'pages'));
  writeFileSync(path.join(root, 'pages', 'home.html'), '<!doctype html><title>home frame</title>');
  writeFileSync(path.join(root, 'pages', 'auth.html'), '<!doctype html><title>auth frame</title>');
  // The track frame template (decision 026): what share documents are written from, never a page of its own.
  writeFileSync(path.join(root, 'pages', 'track.html'), '<!doctype html><title>%%TRACK_TITLE%%</title>');
  writeFileSync(path.join(root, 'assets', 'main-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'video.webm'), Buffer.alloc(1000, 7));
  writeFileSync(path.join(root, 'assets', 'app-def456.js'), script);
  writeFileSync(path.join(root, 'media.mp4'), Buffer.alloc(5000, 1));
  precompress(root);
  const handle = createStaticHandler(
    root,
    securityHeaders({ https: false, connectSources: ['http://s3.local'] }),
  );
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('static SPA server', () => {
  it('answers client-side routes with index.html, uncached, with the security headers', async () => {
    const response = await fetch(`${base}/pricing`);

    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>spa</title>');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self' http://s3.local");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('caches hashed assets for a year with their MIME type', async () => {
    const response = await fetch(`${base}/assets/main-abc123.js`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a missing file rather than the page', async () => {
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
  });

  it('never serves a file outside its root', async () => {
    const response = await fetch(`${base}/..%2f..%2fetc%2fpasswd`);

    expect(response.status).toBe(404);
  });

  it('serves byte ranges for media', async () => {
    const response = await fetch(`${base}/video.webm`, { headers: { range: 'bytes=100-199' } });

    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect((await response.arrayBuffer()).byteLength).toBe(100);
  });

  it('lets the page upload to the storage origin and play audio from its own, and nothing else', () => {
    const csp = securityHeaders({ https: false, connectSources: ['http://127.0.0.1:4569'] })[
      'content-security-policy'
    ];
    const directive = (name: string) =>
      csp
        ?.split('; ')
        .find((d) => d.startsWith(`${name} `))
        ?.split(' ')
        .slice(1);

    expect(directive('connect-src')).toEqual(["'self'", 'http://127.0.0.1:4569']);
    expect(directive('media-src')).toEqual(["'self'", 'blob:']);
    expect(directive('script-src')).toEqual(["'self'"]);
    expect(directive('default-src')).toEqual(["'self'"]);
    // The policy CloudFront sends (infra/lib/web.ts): the same function makes both.
    expect(csp).toBe(contentSecurityPolicy(['http://127.0.0.1:4569']));
    expect(directive('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(securityHeaders({ https: false })['content-security-policy']).toContain("connect-src 'self';");
  });

  it('sends HSTS only over https', () => {
    expect(securityHeaders({ https: true })['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});

describe('static SPA server, compressed answers', () => {
  /** Raw answers: fetch would decode the body and hide what was sent. */
  const raw = (pathname: string, headers: Record<string, string>, method = 'GET') =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(`${base}${pathname}`, { headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  it('writes brotli and gzip copies at build only for text worth compressing', () => {
    const names = (dir: string) => readdirSync(path.join(root, dir)).sort();
    expect(names('assets')).toEqual([
      'app-def456.js',
      'app-def456.js.br',
      'app-def456.js.gz',
      'main-abc123.js',
    ]);
    expect(names('.').filter((name) => name.startsWith('media') || name.startsWith('video'))).toEqual([
      'media.mp4',
      'video.webm',
    ]);
  });

  it('sends the brotli copy when the browser takes it, with its length and Vary', async () => {
    const answer = await raw('/assets/app-def456.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('accept-encoding');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(script.length);
    expect(brotliDecompressSync(answer.body).toString()).toBe(script);
  });

  it('sends gzip to a browser without brotli, and the file itself to one that takes neither', async () => {
    const gzip = await raw('/assets/app-def456.js', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);

    const plainAnswer = await raw('/assets/app-def456.js', {});
    expect(plainAnswer.headers['content-encoding']).toBeUndefined();
    expect(plainAnswer.headers.vary).toBe('accept-encoding');
    expect(plainAnswer.body.toString()).toBe(script);
    expect(Number(plainAnswer.headers['content-length'])).toBe(script.length);
  });

  it('answers HEAD with the compressed length and no body', async () => {
    const head = await raw('/assets/app-def456.js', { 'accept-encoding': 'br' }, 'HEAD');
    const get = await raw('/assets/app-def456.js', { 'accept-encoding': 'br' });

    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.body.length).toBe(0);
  });

  it('serves ranges of the file as it is, and media never compressed', async () => {
    const range = await raw('/assets/app-def456.js', { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.toString()).toBe(script.slice(0, 10));

    const media = await raw('/media.mp4', { 'accept-encoding': 'br, gzip' });
    expect(media.headers['content-encoding']).toBeUndefined();
    expect(media.headers.vary).toBeUndefined();
    expect(media.body.length).toBe(5000);
  });

  it('reads Accept-Encoding with its weights and wildcard', () => {
    expect(accepts('gzip, br', 'br')).toBe(true);
    expect(accepts('gzip;q=1.0, br;q=0', 'br')).toBe(false);
    expect(accepts('*', 'gzip')).toBe(true);
    expect(accepts('*, gzip;q=0', 'gzip')).toBe(false);
    expect(accepts('identity', 'gzip')).toBe(false);
    expect(accepts(undefined, 'br')).toBe(false);
  });
});

describe('prerendered pages', () => {
  const get = (pathname: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${pathname}`, { headers });

  it("answers a visitor's / and /auth with their page's document, and a path without one with the shell", async () => {
    expect(await (await get('/')).text()).toContain('home frame');
    expect(await (await get('/auth?next=%2Flibrary')).text()).toContain('auth frame');
    expect(await (await get('/pricing')).text()).toContain('<title>spa</title>');
    expect(await (await get('/library')).text()).toContain('<title>spa</title>');
  });

  it('answers a browser with the signed-in hint with the shell', async () => {
    for (const cookie of ['ts_signed_in=1', 'a=b; __Host-ts_signed_in=1']) {
      const response = await get('/', { cookie });
      expect(await response.text(), cookie).toContain('<title>spa</title>');
      expect(response.headers.get('cache-control')).toBe('public, no-cache');
    }
  });

  it("answers a track's page with the shell, never the track frame template, signed in or not", async () => {
    // A public track's document is the share handler's (local/src/share-pages.ts); the template is no one's page.
    for (const cookie of ['', 'ts_signed_in=1']) {
      const html = await (await get('/track/abc-123', cookie ? { cookie } : {})).text();
      expect(html, cookie).toContain('<title>spa</title>');
      expect(html, cookie).not.toContain('%%TRACK_TITLE%%');
    }
  });

  it('never tells a browser that revalidates one document that it still holds the other', async () => {
    const visitor = await get('/');
    const etag = visitor.headers.get('etag') as string;
    const modified = visitor.headers.get('last-modified') as string;
    expect(etag).toBeTruthy();
    await visitor.text();
    // The same document again: not modified.
    expect((await get('/', { 'if-none-match': etag, 'if-modified-since': modified })).status).toBe(304);
    // Signed in since: the shell, in full, whatever the dates say.
    const signedIn = await get('/', {
      'if-none-match': etag,
      'if-modified-since': modified,
      cookie: 'ts_signed_in=1',
    });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain('<title>spa</title>');
  });
});
