import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { threadId } from 'node:worker_threads';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterEach, describe, expect, it } from 'vitest';
import { hashObjectsOffThread, md5Worker } from './s3rver-md5';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 's3rver-md5-'));
  closers.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** s3rver with its MD5 off the main thread, and an SDK client for it. */
async function s3rver() {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: await tempDir(),
    configureBuckets: [{ name: 'bucket' }],
  });
  // The thread each stored object was hashed on.
  const hashedOn: number[] = [];
  const hasher = md5Worker();
  const md5s = hashObjectsOffThread(server.store, {
    ...hasher,
    file(path) {
      const file = hasher.file(path);
      return {
        written: file.written,
        end: (size) =>
          file.end(size).then((result) => {
            hashedOn.push(result.threadId);
            return result;
          }),
      };
    },
  });
  const { port } = await server.run();
  closers.push(async () => {
    server.httpServer?.closeAllConnections();
    await server.close();
    await md5s.close();
  });
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  closers.push(async () => client.destroy());
  return { server, client, hashedOn };
}

describe('s3rver with its MD5 on a worker thread', () => {
  it('answers a PUT with the MD5 of the body as its ETag, and keeps it for reads', async () => {
    const { client, hashedOn } = await s3rver();
    // Several MiB, so the worker hashes it in steps while it is written.
    const body = randomBytes(20 * 1024 * 1024 + 123);
    const put = await client.send(
      new PutObjectCommand({
        Bucket: 'bucket',
        Key: 'a/stem.wav',
        Body: Readable.from([body]),
        ContentLength: body.length,
      }),
    );
    expect(put.ETag).toBe(`"${md5(body)}"`);
    const got = await client.send(new GetObjectCommand({ Bucket: 'bucket', Key: 'a/stem.wav' }));
    expect(got.ETag).toBe(`"${md5(body)}"`);
    expect(hashedOn).toHaveLength(1);
    expect(hashedOn[0]).not.toBe(threadId);
    // Compared whole, not element by element: toEqual takes seconds over megabytes.
    expect(Buffer.from((await got.Body?.transformToByteArray()) ?? []).equals(body)).toBe(true);
  });

  it('stores a Buffer object with its MD5, and leaves no file but the object and its own', async () => {
    const { server } = await s3rver();
    const body = randomBytes(3 * 1024 * 1024);
    const stored = await server.store.putObject({
      bucket: 'bucket',
      key: 'form.bin',
      content: body,
      metadata: { 'content-type': 'application/octet-stream' },
    });
    expect(stored).toEqual({ size: body.length, md5: md5(body) });
    expect((await server.store.getMetadata('bucket', 'form.bin')).etag).toBe(`"${md5(body)}"`);
    const objectPath = server.store.getResourcePath('bucket', 'form.bin', 'object');
    expect((await readFile(objectPath)).equals(body)).toBe(true);
    expect((await readdir(path.dirname(objectPath))).sort()).toEqual([
      'form.bin._S3rver_metadata.json',
      'form.bin._S3rver_object',
      'form.bin._S3rver_object.md5',
    ]);
  });

  it('leaves the object as it was when an upload breaks off', async () => {
    const { server, client } = await s3rver();
    const before = Buffer.from('the object before');
    await client.send(new PutObjectCommand({ Bucket: 'bucket', Key: 'kept', Body: before }));
    const content = new PassThrough();
    const putting = server.store.putObject({ bucket: 'bucket', key: 'kept', content, metadata: {} });
    // Broken off once the store is reading it.
    if (!content.write(randomBytes(2 * 1024 * 1024))) await once(content, 'drain');
    content.destroy(new Error('the client went away'));
    await expect(putting).rejects.toThrow('the client went away');
    const got = await client.send(new GetObjectCommand({ Bucket: 'bucket', Key: 'kept' }));
    expect(got.ETag).toBe(`"${md5(before)}"`);
    expect(await got.Body?.transformToString()).toBe('the object before');
    const objectPath = server.store.getResourcePath('bucket', 'kept', 'object');
    expect((await readdir(path.dirname(objectPath))).filter((f) => f.endsWith('.writing'))).toEqual([]);
  });

  it('gives a multipart object the MD5 of its whole content, as s3rver does', async () => {
    const { client } = await s3rver();
    const parts = [randomBytes(5 * 1024 * 1024), randomBytes(1000)];
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: 'bucket', Key: 'parts' }),
    );
    const etags = [];
    for (const [i, part] of parts.entries())
      etags.push(
        (
          await client.send(
            new UploadPartCommand({
              Bucket: 'bucket',
              Key: 'parts',
              UploadId,
              PartNumber: i + 1,
              Body: part,
            }),
          )
        ).ETag,
      );
    const done = await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'bucket',
        Key: 'parts',
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );
    expect(done.ETag).toBe(`"${md5(Buffer.concat(parts))}"`);
  });
});

describe('md5Worker', () => {
  it('hashes a file behind its writes on a thread that is not the main one', async () => {
    const hasher = md5Worker();
    closers.push(() => hasher.close());
    const file = path.join(await tempDir(), 'growing');
    const whole = randomBytes(20 * 1024 * 1024 + 7);
    const hashing = hasher.file(file);
    // Written in steps, the worker told after each, as the store does.
    for (let at = 0; at < whole.length; at += 4 * 1024 * 1024) {
      const upTo = Math.min(whole.length, at + 4 * 1024 * 1024);
      await appendFile(file, whole.subarray(at, upTo));
      hashing.written(upTo);
    }
    const result = await hashing.end(whole.length);
    expect(result.md5).toBe(md5(whole));
    expect(result.threadId).not.toBe(threadId);
    expect(result.threadId).toBeGreaterThan(0);
  });

  it('fails a file that is shorter than was said to be written', async () => {
    const hasher = md5Worker();
    closers.push(() => hasher.close());
    const file = path.join(await tempDir(), 'short');
    await writeFile(file, 'four');
    await expect(hasher.file(file).end(5)).rejects.toThrow('holds 4 bytes, not the 5 written');
    // The worker goes on with the next file.
    expect((await hasher.file(file).end(4)).md5).toBe(md5(Buffer.from('four')));
  });

  it('fails what it was still hashing when it is stopped, rather than leaving it waiting', async () => {
    const hasher = md5Worker();
    const file = path.join(await tempDir(), 'left');
    await writeFile(file, 'left behind');
    // Its refusal is awaited from the start: it comes while close() is still stopping the thread.
    const refused = expect(hasher.file(file).end(11)).rejects.toThrow('The MD5 worker was stopped');
    await hasher.close();
    await refused;
  });
});
