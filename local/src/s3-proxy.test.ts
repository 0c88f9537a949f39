import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
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

/** What stands for s3rver's ListObjectsV2: two objects, more to come; records what it was asked. */
async function listingS3rver(asked: string[]): Promise<string> {
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://doc.s3.amazonaws.com/2006-03-01/"><Name>tunesmith-tracks</Name><Prefix>tracks/</Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated><Contents><Key>tracks/a&amp;b.wav</Key><LastModified>2026-01-02T03:04:05.000Z</LastModified><ETag>&quot;e1&quot;</ETag><Size>12</Size><StorageClass>STANDARD</StorageClass></Contents><Contents><Key>tracks/c.wav</Key><LastModified>2026-01-02T03:04:06.000Z</LastModified><ETag>&quot;e2&quot;</ETag><Size>34</Size><StorageClass>STANDARD</StorageClass></Contents></ListBucketResult>`;
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('ListObjectVersions, which s3rver lacks', () => {
  it('answers as S3 does for a bucket without versioning: each object once, as version null, paged by key', async () => {
    const asked: string[] = [];
    const proxy = await proxyTo(listingS3rver(asked));
    const client = new S3Client({
      endpoint: proxy.url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials,
    });
    closers.push(async () => client.destroy());

    const listed = await client.send(
      new ListObjectVersionsCommand({
        Bucket: 'tunesmith-tracks',
        Prefix: 'tracks/',
        MaxKeys: 2,
        KeyMarker: 'tracks/0.wav',
      }),
    );

    expect(listed.Versions?.map((v) => [v.Key, v.VersionId, v.IsLatest, v.Size])).toEqual([
      ['tracks/a&b.wav', 'null', true, 12],
      ['tracks/c.wav', 'null', true, 34],
    ]);
    expect(listed.DeleteMarkers ?? []).toEqual([]);
    expect(listed.IsTruncated).toBe(true);
    expect(listed.NextKeyMarker).toBe('tracks/c.wav');
    expect(listed.NextVersionIdMarker).toBe('null');
    // From s3rver's own listing of the same prefix, after the marker.
    const query = new URL(asked[0] ?? '', 'http://s3rver').searchParams;
    expect(asked[0]?.startsWith('/tunesmith-tracks?')).toBe(true);
    expect(Object.fromEntries(query)).toEqual({
      'list-type': '2',
      prefix: 'tracks/',
      'max-keys': '2',
      'start-after': 'tracks/0.wav',
    });
  });

  it('checks the signature first, as every other call', async () => {
    const asked: string[] = [];
    const proxy = await proxyTo(listingS3rver(asked));

    const res = await fetch(`${proxy.url}/tunesmith-tracks?versions&prefix=tracks/`);

    expect(res.status).toBe(403);
    expect(asked).toEqual([]);
  });
});
