import { UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import { MULTIPART_MIN_PART_BYTES, uploadMessages } from '@tunesmith/shared/uploads';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../accounts/ports';
import { DomainError } from '../errors';
import {
  abortUpload,
  completeUpload,
  listUploadParts,
  type MultipartDeps,
  type MultipartStore,
  parsePartNumber,
  parsePartSize,
  signUploadPart,
  startMultipartUpload,
} from './multipart';
import { UPLOAD_RESERVATIONS, type UploadStore } from './uploads';

const MiB = 1024 * 1024;
const WAV_HEAD = Uint8Array.from(Buffer.from('RIFF\x24\x08\x00\x00WAVEfmt \x10\x00\x00\x00', 'latin1'));

/**
 * Storage in memory: multipart uploads hold parts of a given size (the first
 * part starts with `head`), and a completed upload becomes an object.
 */
function memoryStorage() {
  const uploads = new Map<string, { key: string; type: string; parts: Map<number, number> }>();
  const objects = new Map<string, { size: number; start: Uint8Array }>();
  let next = 0;
  const upload = (key: string, uploadId: string) => {
    const found = uploads.get(uploadId);
    return found && found.key === key ? found : undefined;
  };
  const multipart: MultipartStore = {
    async create(key, type) {
      next += 1;
      uploads.set(`up-${next}`, { key, type, parts: new Map() });
      return { uploadId: `up-${next}` };
    },
    async partLink(key, uploadId, partNumber, size) {
      return {
        url: `https://storage.test/${key}?uploadId=${uploadId}&partNumber=${partNumber}&size=${size}`,
        expiresIn: 900,
      };
    },
    async listParts(key, uploadId) {
      const found = upload(key, uploadId);
      if (!found) return undefined;
      return [...found.parts.entries()]
        .sort(([a], [b]) => a - b)
        .map(([PartNumber, Size]) => ({ PartNumber, Size, ETag: `"etag-${PartNumber}"` }));
    },
    async complete(key, uploadId, parts) {
      const found = upload(key, uploadId);
      if (!found) throw new Error('no such upload');
      const size = parts.reduce((sum, part) => sum + (found.parts.get(part.PartNumber) ?? 0), 0);
      objects.set(key, { size, start: WAV_HEAD });
      uploads.delete(uploadId);
    },
    async abort(key, uploadId) {
      if (!upload(key, uploadId)) return false;
      uploads.delete(uploadId);
      return true;
    },
  };
  const store: UploadStore = {
    async head(key) {
      const object = objects.get(key);
      return object ? { size: object.size } : undefined;
    },
    async readStart(key, count) {
      return (objects.get(key)?.start ?? new Uint8Array()).subarray(0, count);
    },
    async delete(key) {
      objects.delete(key);
    },
    async move(from, to) {
      const object = objects.get(from);
      if (!object) throw new Error(`no object ${from}`);
      objects.set(to, object);
      objects.delete(from);
    },
    async sha256(key) {
      if (!objects.has(key)) throw new Error(`no object ${key}`);
      return 'ab'.repeat(32);
    },
    async recordSha256(key) {
      if (!objects.has(key)) throw new Error(`no object ${key}`);
    },
  };
  /** The browser PUTs a part of `size` bytes. */
  const putPart = (uploadId: string, partNumber: number, size: number) => {
    uploads.get(uploadId)?.parts.set(partNumber, size);
  };
  return { multipart, store, uploads, objects, putPart };
}

function memoryLimiter(): RateLimiter {
  const counts = new Map<string, number>();
  return {
    async hit(key, limit) {
      const count = counts.get(key) ?? 0;
      if (count >= limit) return false;
      counts.set(key, count + 1);
      return true;
    },
    async count(key) {
      return counts.get(key) ?? 0;
    },
    async add(key) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
  };
}

function setUp() {
  const storage = memoryStorage();
  let id = 0;
  const deps: MultipartDeps = {
    multipart: storage.multipart,
    store: storage.store,
    limiter: memoryLimiter(),
    newId: () => `id${++id}`,
  };
  return { ...storage, deps };
}

async function refusal(promise: Promise<unknown>): Promise<[string, string]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return [(error as DomainError).kind, (error as DomainError).message];
}

const parts = (...numbers: number[]) => numbers.map((n) => ({ PartNumber: n, ETag: `"etag-${n}"` }));

describe('starting an upload in parts', () => {
  it('puts it under the user’s incoming prefix with the file’s allowed type', async () => {
    const { deps, uploads } = setUp();

    const started = await startMultipartUpload(deps, 'u1', { filename: 'Song.WAV', type: 'audio/wav' });

    expect(started.key).toBe('incoming/u1/id1.wav');
    expect(uploads.get(started.uploadId)).toMatchObject({ key: 'incoming/u1/id1.wav', type: 'audio/wav' });
    const unknownType = await startMultipartUpload(deps, 'u1', { filename: 'a.m4a' });
    expect(uploads.get(unknownType.uploadId)?.type).toBe('audio/mp4');
  });

  it('refuses a file that is not one of the allowed types', async () => {
    const { deps, uploads } = setUp();

    expect(await refusal(startMultipartUpload(deps, 'u1', { filename: 'notes.txt' }))).toEqual([
      'validation',
      uploadMessages.typeNotAllowed,
    ]);
    expect(await refusal(startMultipartUpload(deps, 'u1', { filename: 'a.mp3', type: 'text/html' }))).toEqual(
      ['validation', uploadMessages.typeNotAllowed],
    );
    expect(uploads.size).toBe(0);
  });

  it('counts against the hour’s allowance of upload links', async () => {
    const { deps } = setUp();
    for (let i = 0; i < UPLOAD_RESERVATIONS.perUser; i++) {
      await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    }

    expect(await refusal(startMultipartUpload(deps, 'u1', { filename: 'a.wav' }))).toEqual([
      'rate-limited',
      uploadMessages.tooManyReservations,
    ]);
    // Another user's allowance is their own.
    await expect(startMultipartUpload(deps, 'u2', { filename: 'a.wav' })).resolves.toBeTruthy();
  });
});

describe('signing a part', () => {
  it('signs a part of the user’s own upload', async () => {
    const { deps } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });

    const signed = await signUploadPart(deps, 'u1', { key, uploadId, partNumber: '3', size: '5242880' });

    expect(signed).toEqual({
      url: `https://storage.test/${key}?uploadId=${uploadId}&partNumber=3&size=5242880`,
      headers: {},
      expires: 900,
    });
  });

  it('cannot sign without a key, an uploadId and a partNumber', async () => {
    const { deps } = setUp();
    for (const request of [
      { uploadId: 'up-1', partNumber: '1' },
      { key: 'incoming/u1/a.wav', partNumber: '1' },
      { key: 'incoming/u1/a.wav', uploadId: 'up-1' },
      { key: '', uploadId: 'up-1', partNumber: '1' },
    ]) {
      expect(await refusal(signUploadPart(deps, 'u1', request))).toEqual([
        'validation',
        'Cannot sign without a key, an uploadId, and a partNumber',
      ]);
    }
  });

  it('signs a part for its size only, never more than a whole upload may hold', async () => {
    const { deps } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    expect(parsePartSize('1')).toBe(1);
    expect(parsePartSize('50485760')).toBe(50_485_760);
    for (const bad of [undefined, '', '0', '50485761', '-1', '1.5', '1e6', 'x', '5368709120']) {
      expect(() => parsePartSize(bad), String(bad)).toThrow(uploadMessages.partSizeRange);
      expect(
        await refusal(
          signUploadPart(deps, 'u1', {
            key,
            uploadId,
            partNumber: '1',
            ...(bad === undefined ? {} : { size: bad }),
          }),
        ),
      ).toEqual(['validation', uploadMessages.partSizeRange]);
    }
  });

  it('takes part numbers from 1 to 10000 only', async () => {
    expect(parsePartNumber('1')).toBe(1);
    expect(parsePartNumber('10000')).toBe(10_000);
    for (const bad of ['0', '10001', '-1', '1.5', '1e3', 'x', '000001']) {
      expect(() => parsePartNumber(bad), bad).toThrow(uploadMessages.partNumberRange);
    }
  });

  it('answers not found for a key outside the user’s incoming prefix', async () => {
    const { deps } = setUp();
    for (const key of [
      'incoming/u2/a.wav',
      'uploads/u1/a.wav',
      'incoming/u1/../u2/a.wav',
      'incoming/u1/a.exe',
    ]) {
      expect(
        await refusal(signUploadPart(deps, 'u1', { key, uploadId: 'up-1', partNumber: '1', size: '100' })),
      ).toEqual(['not-found', uploadMessages.notFound]);
    }
  });
});

describe('listing and aborting', () => {
  it('lists the parts storage holds, and drops the upload on abort', async () => {
    const { deps, putPart, uploads } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    putPart(uploadId, 2, 5 * MiB);
    putPart(uploadId, 1, 5 * MiB);

    expect(await listUploadParts(deps, 'u1', key, uploadId)).toEqual([
      { PartNumber: 1, ETag: '"etag-1"', Size: 5 * MiB },
      { PartNumber: 2, ETag: '"etag-2"', Size: 5 * MiB },
    ]);

    await abortUpload(deps, 'u1', key, uploadId);
    expect(uploads.has(uploadId)).toBe(false);
    expect(await refusal(abortUpload(deps, 'u1', key, uploadId))).toEqual([
      'not-found',
      uploadMessages.notFound,
    ]);
  });

  it('answers not found for another user’s upload, and leaves it alone', async () => {
    const { deps, uploads } = setUp();
    const alices = await startMultipartUpload(deps, 'alice', { filename: 'a.wav' });
    const bobs = await startMultipartUpload(deps, 'bob', { filename: 'b.wav' });

    // Alice's key, or Bob's own key with Alice's upload id.
    for (const [key, uploadId] of [
      [alices.key, alices.uploadId],
      [bobs.key, alices.uploadId],
    ] as const) {
      expect(await refusal(listUploadParts(deps, 'bob', key, uploadId))).toEqual([
        'not-found',
        uploadMessages.notFound,
      ]);
      expect(await refusal(abortUpload(deps, 'bob', key, uploadId))).toEqual([
        'not-found',
        uploadMessages.notFound,
      ]);
      expect(await refusal(completeUpload(deps, 'bob', key, uploadId, parts(1)))).toEqual([
        'not-found',
        uploadMessages.notFound,
      ]);
    }
    expect(uploads.has(alices.uploadId)).toBe(true);
  });
});

describe('completing an upload in parts', () => {
  it('joins the parts, checks the file as a single upload is checked and keeps it for generations', async () => {
    const { deps, putPart, objects } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    putPart(uploadId, 1, 5 * MiB);
    putPart(uploadId, 2, 5 * MiB);
    putPart(uploadId, 3, 1234);

    const done = await completeUpload(deps, 'u1', key, uploadId, parts(1, 2, 3));

    expect(done).toEqual({ key: 'uploads/u1/id1.wav', objectPath: '/objects/uploads/u1/id1.wav' });
    expect(objects.get('uploads/u1/id1.wav')?.size).toBe(10 * MiB + 1234);
    expect(objects.has(key)).toBe(false);
  });

  it('judges the size from storage’s parts, and drops an upload over 50485760 bytes', async () => {
    const { deps, putPart, uploads, objects } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    const part = 5 * MiB;
    const count = Math.floor(UPLOAD_MAX_BYTES / part);
    for (let n = 1; n <= count; n++) putPart(uploadId, n, part);
    putPart(uploadId, count + 1, UPLOAD_MAX_BYTES - count * part + 1);

    expect(
      await refusal(
        completeUpload(
          deps,
          'u1',
          key,
          uploadId,
          parts(...Array.from({ length: count + 1 }, (_, i) => i + 1)),
        ),
      ),
    ).toEqual(['validation', uploadMessages.tooLarge]);
    expect(uploads.has(uploadId)).toBe(false);
    expect(objects.size).toBe(0);
  });

  it('takes exactly 50485760 bytes', async () => {
    const { deps, putPart } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    putPart(uploadId, 1, 45 * MiB);
    putPart(uploadId, 2, UPLOAD_MAX_BYTES - 45 * MiB);

    await expect(completeUpload(deps, 'u1', key, uploadId, parts(1, 2))).resolves.toMatchObject({
      key: 'uploads/u1/id1.wav',
    });
  });

  it('refuses a part under 5 MiB that is not the last, a part never uploaded and a wrong ETag', async () => {
    const { deps, putPart, uploads } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    putPart(uploadId, 1, MULTIPART_MIN_PART_BYTES - 1);
    putPart(uploadId, 2, 100);

    expect(await refusal(completeUpload(deps, 'u1', key, uploadId, parts(1, 2)))).toEqual([
      'validation',
      uploadMessages.partTooSmall,
    ]);
    expect(await refusal(completeUpload(deps, 'u1', key, uploadId, parts(2, 3)))).toEqual([
      'validation',
      uploadMessages.partMissing,
    ]);
    expect(
      await refusal(completeUpload(deps, 'u1', key, uploadId, [{ PartNumber: 2, ETag: '"forged"' }])),
    ).toEqual(['validation', uploadMessages.partMissing]);
    expect(await refusal(completeUpload(deps, 'u1', key, uploadId, parts(2, 1)))).toEqual([
      'validation',
      uploadMessages.partsOrder,
    ]);
    expect(await refusal(completeUpload(deps, 'u1', key, uploadId, []))).toEqual([
      'validation',
      uploadMessages.partsRequired,
    ]);
    // None of these ended the upload: the browser may still send the right parts.
    expect(uploads.has(uploadId)).toBe(true);
  });

  it('refuses an upload with no bytes', async () => {
    const { deps, putPart } = setUp();
    const { key, uploadId } = await startMultipartUpload(deps, 'u1', { filename: 'a.wav' });
    putPart(uploadId, 1, 0);

    expect(await refusal(completeUpload(deps, 'u1', key, uploadId, parts(1)))).toEqual([
      'validation',
      uploadMessages.empty,
    ]);
  });
});
