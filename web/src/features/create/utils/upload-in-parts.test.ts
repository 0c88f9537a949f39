import type { MultipartUpload } from '@tunesmith/shared/uploads';
import { describe, expect, it, vi } from 'vitest';
import {
  type MultipartApi,
  PART_RETRY_DELAYS_MS,
  type PartSender,
  PartUploadError,
  partRanges,
  uploadInParts,
} from './upload-in-parts';

const MiB = 1024 * 1024;
const upload: MultipartUpload = { key: 'incoming/u1/a.wav', uploadId: 'up-1' };

function fakeApi(held: { PartNumber: number; ETag: string; Size: number }[] = []) {
  const api = {
    create: vi.fn(async () => upload),
    signPart: vi.fn(async (_upload: MultipartUpload, partNumber: number, _size: number) => ({
      url: `https://storage.test/part/${partNumber}`,
      headers: {},
      expires: 900,
    })),
    listParts: vi.fn(async () => held),
    complete: vi.fn(async () => ({
      location: '/objects/uploads/u1/a.wav',
      key: 'uploads/u1/a.wav',
      objectPath: '/objects/uploads/u1/a.wav',
    })),
    abort: vi.fn(async () => undefined),
  } satisfies MultipartApi;
  return api;
}

/** Storage that answers each part with an ETag, failing the attempts `failures` names (part → how many). */
function fakeStorage(failures: Record<number, number | 'always'> = {}, status = 0) {
  const sent: { partNumber: number; size: number }[] = [];
  const send: PartSender = async ({ url, body }, onProgress) => {
    const partNumber = Number(url.split('/').at(-1));
    const left = failures[partNumber];
    if (left === 'always' || (typeof left === 'number' && left > 0)) {
      if (typeof left === 'number') failures[partNumber] = left - 1;
      onProgress(Math.floor(body.size / 2));
      throw new PartUploadError(status, status === 0 || status >= 500);
    }
    onProgress(body.size);
    sent.push({ partNumber, size: body.size });
    return `"etag-${partNumber}"`;
  };
  return { send, sent };
}

const file = (size: number, type = 'audio/wav') => {
  const blob = new Blob([new Uint8Array(size)], { type });
  return Object.assign(blob, { name: 'Long Song.wav' });
};

describe('parts of a file', () => {
  it('are 5 MiB each, the last one what is left', () => {
    expect(partRanges(20 * 1000 * 1000)).toEqual([
      { start: 0, end: 5 * MiB },
      { start: 5 * MiB, end: 10 * MiB },
      { start: 10 * MiB, end: 15 * MiB },
      { start: 15 * MiB, end: 20 * 1000 * 1000 },
    ]);
    expect(partRanges(5 * MiB)).toEqual([{ start: 0, end: 5 * MiB }]);
  });
});

describe('uploading in parts', () => {
  it('creates the upload with the file’s name and type, sends every part and completes with their ETags', async () => {
    const api = fakeApi();
    const storage = fakeStorage();
    const progress: number[] = [];

    const done = await uploadInParts(file(11 * MiB), {
      api,
      send: storage.send,
      onProgress: (sent) => progress.push(sent),
    });

    expect(done.objectPath).toBe('/objects/uploads/u1/a.wav');
    expect(api.create).toHaveBeenCalledWith({ filename: 'Long Song.wav', type: 'audio/wav' }, undefined);
    expect(storage.sent).toEqual([
      { partNumber: 1, size: 5 * MiB },
      { partNumber: 2, size: 5 * MiB },
      { partNumber: 3, size: MiB },
    ]);
    expect(api.complete).toHaveBeenCalledWith(
      upload,
      [
        { PartNumber: 1, ETag: '"etag-1"' },
        { PartNumber: 2, ETag: '"etag-2"' },
        { PartNumber: 3, ETag: '"etag-3"' },
      ],
      undefined,
    );
    expect(progress.at(-1)).toBe(11 * MiB);
  });

  it('leaves a type the server does not list out of the request', async () => {
    const api = fakeApi();
    await uploadInParts(file(6 * MiB, 'audio/vnd.dlna.adts'), { api, send: fakeStorage().send });
    expect(api.create).toHaveBeenCalledWith({ filename: 'Long Song.wav' }, undefined);
  });

  it('tries a dropped part again after the spec’s delays with a fresh link, then goes on', async () => {
    const api = fakeApi();
    const storage = fakeStorage({ 2: 3 });
    const sleep = vi.fn(async (_ms: number) => undefined);

    await uploadInParts(file(11 * MiB), { api, send: storage.send, sleep });

    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([0, 1000, 3000]);
    expect(api.signPart.mock.calls.map(([, n]) => n)).toEqual([1, 2, 2, 2, 2, 3]);
    // Each link is asked for its part's own size: two 5 MiB parts, then the last 1 MiB.
    expect(api.signPart.mock.calls.map(([, , size]) => size)).toEqual([5, 5, 5, 5, 5, 1].map((n) => n * MiB));
    expect(storage.sent.map((p) => p.partNumber)).toEqual([1, 2, 3]);
    expect(api.complete).toHaveBeenCalledTimes(1);
  });

  it('fails after the last delay without completing, and keeps the upload to resume', async () => {
    const api = fakeApi();
    const storage = fakeStorage({ 2: 'always' });
    const sleep = vi.fn(async (_ms: number) => undefined);
    const onStarted = vi.fn();

    const failure = await uploadInParts(file(11 * MiB), { api, send: storage.send, sleep, onStarted }).catch(
      (e: unknown) => e,
    );

    expect(failure).toBeInstanceOf(PartUploadError);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([...PART_RETRY_DELAYS_MS]);
    expect(api.complete).not.toHaveBeenCalled();
    expect(api.abort).not.toHaveBeenCalled();
    expect(onStarted).toHaveBeenCalledWith(upload);
  });

  it('does not try again what storage refused for good', async () => {
    const api = fakeApi();
    const storage = fakeStorage({ 1: 'always' }, 404);
    const sleep = vi.fn(async (_ms: number) => undefined);

    await expect(uploadInParts(file(6 * MiB), { api, send: storage.send, sleep })).rejects.toBeInstanceOf(
      PartUploadError,
    );
    expect(sleep).not.toHaveBeenCalled();
  });

  it('resumes: lists what storage holds and sends only the rest', async () => {
    const api = fakeApi([
      { PartNumber: 1, ETag: '"held-1"', Size: 5 * MiB },
      // A part cut short by the drop is sent again.
      { PartNumber: 2, ETag: '"held-2"', Size: MiB },
    ]);
    const storage = fakeStorage();

    await uploadInParts(file(11 * MiB), { api, send: storage.send, resume: upload });

    expect(api.create).not.toHaveBeenCalled();
    expect(storage.sent.map((p) => p.partNumber)).toEqual([2, 3]);
    expect(api.complete).toHaveBeenCalledWith(
      upload,
      [
        { PartNumber: 1, ETag: '"held-1"' },
        { PartNumber: 2, ETag: '"etag-2"' },
        { PartNumber: 3, ETag: '"etag-3"' },
      ],
      undefined,
    );
  });

  it('stops when cancelled', async () => {
    const api = fakeApi();
    const controller = new AbortController();
    const send: PartSender = async () => {
      controller.abort();
      throw new PartUploadError(0, true);
    };

    await expect(
      uploadInParts(file(11 * MiB), { api, send, signal: controller.signal, sleep: async () => undefined }),
    ).rejects.toThrow();
    expect(api.signPart).toHaveBeenCalledTimes(1);
    expect(api.complete).not.toHaveBeenCalled();
  });
});
