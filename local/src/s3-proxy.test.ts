import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { type S3Proxy, startS3Proxy } from './s3-proxy';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A promise with its settlers at hand. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function proxyTo(upstream: Promise<string>): Promise<S3Proxy> {
  const proxy = await startS3Proxy({ port: 0, upstream, credentials, dir: os.tmpdir() });
  closers.push(() => proxy.close());
  return proxy;
}

/** What stands for s3rver: answers every request with 204 and the path it was asked. */
async function fakeS3rver(): Promise<string> {
  const server = http.createServer((req, res) => {
    res.writeHead(204, { 'x-asked': req.url ?? '' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const preflight = (proxy: S3Proxy) =>
  fetch(`${proxy.url}/tunesmith-uploads/a/b.wav`, {
    method: 'OPTIONS',
    headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'PUT' },
  });

describe('the S3 proxy while s3rver starts', () => {
  it('holds a request until s3rver answers, then forwards it', async () => {
    const upstream = deferred<string>();
    const proxy = await proxyTo(upstream.promise);

    const answer = preflight(proxy);
    const early = await Promise.race([
      answer.then(() => 'answered'),
      new Promise((resolve) => setTimeout(resolve, 150, 'held')),
    ]);
    expect(early).toBe('held');

    upstream.resolve(await fakeS3rver());
    const res = await answer;
    expect(res.status).toBe(204);
    expect(res.headers.get('x-asked')).toBe('/tunesmith-uploads/a/b.wav');
  });

  it('answers 503 when s3rver did not start', async () => {
    const upstream = deferred<string>();
    const proxy = await proxyTo(upstream.promise);
    upstream.reject(new Error('s3rver was not started'));

    const res = await preflight(proxy);

    expect(res.status).toBe(503);
    expect(await res.text()).toContain('<Code>ServiceUnavailable</Code>');
  });

  it('refuses an unsigned request at once, without waiting for s3rver', async () => {
    const proxy = await proxyTo(new Promise<string>(() => {}));

    const res = await fetch(`${proxy.url}/tunesmith-tracks/secret.wav`);

    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>AccessDenied</Code>');
  });
});
