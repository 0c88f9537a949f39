import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3AudioStore } from './audio-store';
import type { S3 } from './client';

const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251);
let base = '';
const server = http.createServer((req, res) => {
  if (req.url === '/plain') {
    res.writeHead(200, { 'content-length': bytes.length });
    // In pieces, as a large body arrives.
    res.write(bytes.subarray(0, 1000));
    setTimeout(() => res.end(bytes.subarray(1000)), 5);
  } else if (req.url === '/gzip') {
    const body = gzipSync(bytes);
    res.writeHead(200, { 'content-length': body.length, 'content-encoding': 'gzip' });
    res.end(body);
  } else if (req.url === '/chunked') {
    res.writeHead(200);
    res.end(bytes);
  } else {
    res.writeHead(503);
    res.end();
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Fetching never touches S3.
const store = s3AudioStore((() => Promise.reject(new Error('no S3 here'))) as unknown as S3, 'tracks');

describe('s3AudioStore.fetch', () => {
  it('reads the whole body, with a length, compressed or without one', async () => {
    for (const path of ['/plain', '/gzip', '/chunked'])
      expect(await store.fetch(`${base}${path}`)).toEqual(bytes);
  });

  it('names an answer worth a retry Storage.Unavailable', async () => {
    await expect(store.fetch(`${base}/busy`)).rejects.toMatchObject({ name: 'Storage.Unavailable' });
  });
});
