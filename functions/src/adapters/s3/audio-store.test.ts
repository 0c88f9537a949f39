import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3AudioStore } from './audio-store';
import type { S3 } from './client';

const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251);
/** Bytes as their length and hash: a deep comparison of 300 KB element by element takes seconds on a busy machine. */
const digest = (b: Uint8Array | undefined) =>
  b && { length: b.length, sha256: createHash('sha256').update(b).digest('hex') };
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

/**
 * An S3 that keeps what is put, reading a streamed body to its end as S3 would; with
 * `dropStreamedAfter`, the first streamed put reads that many bytes and fails, as a connection
 * reset or a 500 mid-upload does (the SDK cannot send a stream again).
 */
function keptObjects(options: { dropStreamedAfter?: number } = {}) {
  let drop = options.dropStreamedAfter;
  const sent: ('stream' | 'bytes')[] = [];
  const objects = new Map<string, { body: Uint8Array; length?: number; type?: string }>();
  class PutObjectCommand {
    constructor(
      readonly input: {
        Key: string;
        Body: Uint8Array | AsyncIterable<Uint8Array>;
        ContentLength?: number;
        ContentType?: string;
      },
    ) {}
  }
  const client = {
    async send(command: PutObjectCommand) {
      const { Key, Body, ContentLength, ContentType } = command.input;
      let body: Uint8Array;
      sent.push(Body instanceof Uint8Array ? 'bytes' : 'stream');
      if (Body instanceof Uint8Array) body = Body;
      else {
        const parts: Uint8Array[] = [];
        let read = 0;
        for await (const part of Body) {
          parts.push(part);
          read += part.length;
          if (drop !== undefined && read >= drop) {
            drop = undefined;
            throw new Error('socket hang up');
          }
        }
        body = new Uint8Array(Buffer.concat(parts));
      }
      objects.set(Key, {
        body,
        ...(ContentLength !== undefined ? { length: ContentLength } : {}),
        ...(ContentType ? { type: ContentType } : {}),
      });
      return {};
    },
  };
  const s3 = (async () => ({ sdk: { PutObjectCommand }, client })) as unknown as S3;
  return { s3, objects, sent };
}

const kept = keptObjects();
const store = s3AudioStore(kept.s3, 'tracks');

describe('s3AudioStore.fetch', () => {
  it('reads the whole body, with a length, compressed or without one', async () => {
    for (const path of ['/plain', '/gzip', '/chunked'])
      expect(digest(await store.fetch(`${base}${path}`))).toEqual(digest(bytes));
  });

  it('names an answer worth a retry Storage.Unavailable', async () => {
    await expect(store.fetch(`${base}/busy`)).rejects.toMatchObject({ name: 'Storage.Unavailable' });
  });

  it('keeps a file as it arrives: stored under its key and returned, with a length or without one', async () => {
    for (const path of ['/plain', '/gzip', '/chunked']) {
      const key = `tracks/t1${path.replace('/', '.')}.wav`;
      const { bytes: got, stored } = await store.keep(`${base}${path}`, key, 'audio/wav');
      expect(digest(got)).toEqual(digest(bytes));
      expect(stored).toBe(`s3://tracks/${key}`);
      expect(digest(kept.objects.get(key)?.body)).toEqual(digest(bytes));
      expect(kept.objects.get(key)?.type).toBe('audio/wav');
    }
    // Streamed with its length, as S3 needs for a body it cannot hash first.
    expect(kept.objects.get('tracks/t1.plain.wav')?.length).toBe(bytes.length);
  });

  it('puts the whole file again when its streamed upload fails partway, which the SDK cannot retry', async () => {
    for (const dropAfter of [1000, bytes.length]) {
      const flaky = keptObjects({ dropStreamedAfter: dropAfter });
      const key = 'tracks/t2.wav';
      const { bytes: got } = await s3AudioStore(flaky.s3, 'tracks').keep(`${base}/plain`, key, 'audio/wav');
      expect(flaky.sent).toEqual(['stream', 'bytes']);
      expect(digest(got)).toEqual(digest(bytes));
      expect(digest(flaky.objects.get(key)?.body)).toEqual(digest(bytes));
    }
  });

  it('stores nothing of a file it could not fetch', async () => {
    await expect(store.keep(`${base}/busy`, 'tracks/t1.busy.wav', 'audio/wav')).rejects.toMatchObject({
      name: 'Storage.Unavailable',
    });
    expect(kept.objects.has('tracks/t1.busy.wav')).toBe(false);
  });
});
