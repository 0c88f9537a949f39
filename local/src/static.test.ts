import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticHandler, securityHeaders } from './static';

let root: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-static-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>spa</title>');
  writeFileSync(path.join(root, 'assets', 'main-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'video.webm'), Buffer.alloc(1000, 7));
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
    expect(response.headers.get('cache-control')).toBe('no-cache');
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
    expect(securityHeaders({ https: false })['content-security-policy']).toContain("connect-src 'self';");
  });

  it('sends HSTS only over https', () => {
    expect(securityHeaders({ https: true })['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});
