/**
 * s3rver's store hashes every object it keeps with MD5 (the ETag) as the
 * bytes come in, on the thread that runs the whole local cloud: six 46 MB
 * stems are about 0.3 s of hashing during which no request is answered and
 * no other upload moves. Here its `putObject` writes the object as before and
 * a worker thread hashes the file behind the writes, reading back what is
 * already written (from the page cache), so the main thread neither hashes
 * nor copies the bytes. The ETag is still the MD5 of exactly the bytes
 * stored. A multipart upload's object is stored through the same
 * `putObject`, so its ETag stays what s3rver gives it; its parts are hashed
 * by s3rver as before.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type { S3rverObject, S3rverStore } from 's3rver';

/**
 * The worker: one MD5 per file being written, read up to what the main thread
 * says is written. Plain CommonJS, so it starts as fast from the compiled
 * local cloud as from source. One answer per file, when it is ended.
 */
const WORKER_SOURCE = `
const { parentPort, threadId } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const files = new Map();
const buffer = Buffer.allocUnsafe(1 << 20);
parentPort.on('message', ({ id, path, upTo, end }) => {
  let file = files.get(id);
  if (!file) {
    file = { fd: undefined, hash: createHash('md5'), at: 0, error: undefined };
    files.set(id, file);
  }
  if (file.error === undefined) {
    try {
      if (file.fd === undefined) file.fd = openSync(path, 'r');
      while (file.at < upTo) {
        const read = readSync(file.fd, buffer, 0, Math.min(buffer.length, upTo - file.at), file.at);
        if (read === 0) throw new Error(path + ' holds ' + file.at + ' bytes, not the ' + upTo + ' written');
        file.hash.update(buffer.subarray(0, read));
        file.at += read;
      }
    } catch (error) {
      file.error = error instanceof Error ? error.message : String(error);
    }
  }
  if (!end) return;
  files.delete(id);
  if (file.fd !== undefined) closeSync(file.fd);
  parentPort.postMessage(
    file.error === undefined ? { id, md5: file.hash.digest('hex'), threadId } : { id, error: file.error },
  );
});
`;

/**
 * Bytes written between two messages to the worker. Each message wakes the
 * worker, which on a busy machine costs the main thread far more than the
 * message's size suggests; so few: five for a 46 MB stem, and the hash is at
 * most 8 MiB behind the writes.
 */
const STEP = 8 << 20;

export interface FileMd5 {
  /** `bytes` of the file are written (a running total); the worker may hash them. */
  written(bytes: number): void;
  /** The file is `size` bytes, all written: its MD5 (hex) and the thread that hashed it. */
  end(size: number): Promise<{ md5: string; threadId: number }>;
}

export interface Md5Worker {
  /** The MD5 of the file at `path` as it is written. */
  file(path: string): FileMd5;
  close(): Promise<void>;
}

interface Answer {
  id: number;
  md5?: string;
  threadId?: number;
  error?: string;
}

/** A worker thread that hashes files as they are written, started at its first file. */
export function md5Worker(): Md5Worker {
  let worker: Worker | undefined;
  let next = 0;
  const waiting = new Map<
    number,
    { resolve: (r: { md5: string; threadId: number }) => void; reject: (e: Error) => void }
  >();
  const failAll = (error: Error) => {
    worker = undefined;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  const post = (message: { id: number; path: string; upTo: number; end: boolean }) => {
    if (!worker) {
      const started = new Worker(WORKER_SOURCE, { eval: true });
      // An idle hasher does not keep the process alive; the uploads it serves do.
      started.unref();
      started.on('message', (answer: Answer) => {
        const w = waiting.get(answer.id);
        if (!w) return;
        waiting.delete(answer.id);
        if (answer.md5 !== undefined) w.resolve({ md5: answer.md5, threadId: answer.threadId ?? -1 });
        else w.reject(new Error(`Hashing the stored object failed: ${answer.error}`));
      });
      started.on('error', (error) => {
        if (worker === started) failAll(error);
      });
      started.on('exit', (code) => {
        if (worker === started) failAll(new Error(`The MD5 worker exited (${code})`));
      });
      worker = started;
    }
    worker.postMessage(message);
  };
  return {
    file(path) {
      const id = ++next;
      let posted = 0;
      let ended: Promise<{ md5: string; threadId: number }> | undefined;
      return {
        written(bytes) {
          if (ended || bytes - posted < STEP) return;
          posted = bytes;
          post({ id, path, upTo: bytes, end: false });
        },
        end(size) {
          ended ??= new Promise((resolve, reject) => {
            waiting.set(id, { resolve, reject });
            // A worker that died meanwhile is replaced; the new one reads the file from its start.
            post({ id, path, upTo: size, end: true });
          });
          return ended;
        },
      };
    },
    async close() {
      const stopping = worker;
      // Nothing waits on a hash that will not come.
      failAll(new Error('The MD5 worker was stopped'));
      await stopping?.terminate();
    },
  };
}

/**
 * `store`'s `putObject` with its MD5 off the main thread. Each object is
 * written beside its final path and renamed into it once hashed, so a
 * failed or aborted upload leaves the object as it was, not half written.
 */
export function hashObjectsOffThread(store: S3rverStore, hasher: Md5Worker = md5Worker()): Md5Worker {
  store.putObject = async (object: S3rverObject) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const writing = `${objectPath}.${randomUUID()}.writing`;
    const file = createWriteStream(writing);
    const md5 = hasher.file(writing);
    let size = 0;
    try {
      await pipeline(
        Buffer.isBuffer(object.content) ? [object.content] : object.content,
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            md5.written(file.bytesWritten);
            done(null, chunk);
          },
        }),
        file,
      );
      const { md5: digest } = await md5.end(size);
      await rename(writing, objectPath);
      await store.putMetadata(object.bucket, object.key, object.metadata, digest);
      return { size, md5: digest };
    } catch (error) {
      // The worker lets go of the file before it is removed.
      await md5.end(size).catch(() => undefined);
      await rm(writing, { force: true });
      throw error;
    }
  };
  return hasher;
}
