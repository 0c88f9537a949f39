import { createHash } from 'node:crypto';
import { sniffAudioFormat } from '@tunesmith/shared/audio-format';
import { UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import { uploadMessages } from '@tunesmith/shared/uploads';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import {
  acceptUpload,
  checkUploadedAudio,
  keptUploadKey,
  newUploadKey,
  objectPathOf,
  ownIncomingKey,
  ownUploadKey,
  type UploadStore,
} from './uploads';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)),
  );

// The first bytes of real files of each format, as encoders write them.
const headers = {
  // RIFF chunk, WAVE form, then the fmt chunk (44.1 kHz PCM).
  wav: bytes('RIFF', [0x24, 0x08, 0x00, 0x00], 'WAVE', 'fmt ', [0x10, 0, 0, 0, 0x01, 0x00, 0x02, 0x00]),
  // ID3v2.4 tag header before the first frame.
  mp3Id3: bytes('ID3', [0x04, 0x00, 0x00, 0x00, 0x00, 0x0f, 0x76, 0x54, 0x49, 0x54, 0x32]),
  // Tagless MPEG-1 Layer III frame header: 128 kbit/s, 44.1 kHz, joint stereo.
  mp3Frame: bytes([0xff, 0xfb, 0x90, 0x64, 0x00, 0x0f, 0xf0, 0x00, 0x00, 0x69, 0x00, 0x00]),
  // First Ogg page (BOS) of a Vorbis stream.
  ogg: bytes('OggS', [0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x4a, 0x1b]),
  // ISO media file with the iTunes audio brand.
  m4a: bytes([0x00, 0x00, 0x00, 0x20], 'ftyp', 'M4A ', [0x00, 0x00, 0x00, 0x00], 'M4A '),
  // ADTS frame header: MPEG-4 AAC LC, 44.1 kHz, stereo, no CRC.
  aacAdts: bytes([0xff, 0xf1, 0x50, 0x80, 0x2e, 0x7f, 0xfc, 0x21, 0x00, 0x49]),
};

const notAudio = {
  text: bytes('hello, this is not a song at all\n'),
  png: bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d], 'IHDR'),
  // HEIC photos share the ISO media container with M4A; only the brand tells them apart.
  heic: bytes([0x00, 0x00, 0x00, 0x18], 'ftyp', 'heic', [0x00, 0x00, 0x00, 0x00], 'mif1'),
  // AVI shares the RIFF container with WAV.
  avi: bytes('RIFF', [0x24, 0x08, 0x00, 0x00], 'AVI ', 'LIST'),
  // Starts with 0xFF like an MPEG frame, but its bitrate index is the invalid 1111.
  ffJunk: bytes([0xff, 0xfb, 0xf0, 0x00, 0x01, 0x02]),
};

const sha256Of = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Uploads held in memory, remembering deletes, hashes taken and hashes kept with each object. */
function memoryStore(objects: Record<string, Uint8Array | { size: number; start: Uint8Array }>) {
  const deleted: string[] = [];
  const hashed: string[] = [];
  const recorded = new Map<string, string>();
  const store: UploadStore = {
    async head(key) {
      const object = objects[key];
      if (!object) return undefined;
      const sha256 = recorded.get(key);
      return {
        size: object instanceof Uint8Array ? object.length : object.size,
        ...(sha256 ? { sha256 } : {}),
      };
    },
    async readStart(key, count) {
      const object = objects[key];
      if (!object) throw new Error(`no object ${key}`);
      return (object instanceof Uint8Array ? object : object.start).subarray(0, count);
    },
    async delete(key) {
      deleted.push(key);
      delete objects[key];
    },
    async move(from, to) {
      const object = objects[from];
      if (!object) throw new Error(`no object ${from}`);
      objects[to] = object;
      delete objects[from];
    },
    async sha256(key) {
      const object = objects[key];
      if (!object) throw new Error(`no object ${key}`);
      hashed.push(key);
      return sha256Of(object instanceof Uint8Array ? object : object.start);
    },
    async recordSha256(key, sha256) {
      if (!objects[key]) throw new Error(`no object ${key}`);
      recorded.set(key, sha256);
    },
  };
  return { store, deleted, objects, hashed, recorded };
}

async function domainError(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('upload keys', () => {
  it('puts a new file under the user’s incoming prefix, keeping only an allowed extension', () => {
    expect(newUploadKey('u1', 'abc', 'My Song.WAV')).toBe('incoming/u1/abc.wav');
    expect(newUploadKey('u1', 'abc', 'script.exe')).toBe('incoming/u1/abc');
    expect(newUploadKey('u1', 'abc')).toBe('incoming/u1/abc');
    expect(keptUploadKey('incoming/u1/abc.wav')).toBe('uploads/u1/abc.wav');
    expect(objectPathOf('uploads/u1/abc.wav')).toBe('/objects/uploads/u1/abc.wav');
  });

  it('accepts the user’s own upload paths', () => {
    const key = keptUploadKey(newUploadKey('u1', '0b6f3c1e-6f1a-4e39-9d1f-1c2b3a4d5e6f', 'a.mp3'));
    expect(ownUploadKey(objectPathOf(key), 'u1')).toBe(key);
    expect(ownUploadKey('/objects/uploads/u1/abc', 'u1')).toBe('uploads/u1/abc');
  });

  it('knows the user’s own incoming files, and only those', () => {
    expect(ownIncomingKey('incoming/u1/abc.wav', 'u1')).toBe('incoming/u1/abc.wav');
    expect(ownIncomingKey('incoming/u2/abc.wav', 'u1')).toBeUndefined();
    expect(ownIncomingKey('incoming/u1/../u2/abc.wav', 'u1')).toBeUndefined();
    // A file not yet checked is not a usable upload.
    expect(ownUploadKey('/objects/incoming/u1/abc.wav', 'u1')).toBeUndefined();
    expect(ownIncomingKey('uploads/u1/abc.wav', 'u1')).toBeUndefined();
  });

  it('refuses another user’s upload', () => {
    expect(ownUploadKey('/objects/uploads/u2/abc.wav', 'u1')).toBeUndefined();
    // A user id that only starts like ours is someone else's prefix.
    expect(ownUploadKey('/objects/uploads/u10/abc.wav', 'u1')).toBeUndefined();
  });

  it('refuses paths that climb out with `..` or reach deeper folders', () => {
    expect(ownUploadKey('/objects/uploads/u1/../u2/abc.wav', 'u1')).toBeUndefined();
    expect(ownUploadKey('/objects/uploads/u1/..', 'u1')).toBeUndefined();
    expect(ownUploadKey('/objects/uploads/u1/a/b.wav', 'u1')).toBeUndefined();
    expect(ownUploadKey('/objects/uploads/u1/%2e%2e', 'u1')).toBeUndefined();
  });

  it('refuses paths outside the uploads area and names it never makes', () => {
    expect(ownUploadKey('/objects/tracks/u1/abc.wav', 'u1')).toBeUndefined();
    expect(ownUploadKey('uploads/u1/abc.wav', 'u1')).toBeUndefined();
    expect(ownUploadKey('s3://bucket/uploads/u1/abc.wav', 'u1')).toBeUndefined();
    expect(ownUploadKey('/objects/uploads/u1/', 'u1')).toBeUndefined();
    expect(ownUploadKey('/objects/uploads/u1/abc.html', 'u1')).toBeUndefined();
    expect(ownUploadKey('/objects/uploads/u1/abc.wav.html', 'u1')).toBeUndefined();
  });
});

describe('sniffAudioFormat', () => {
  it.each([
    ['wav', headers.wav],
    ['mp3', headers.mp3Id3],
    ['mp3', headers.mp3Frame],
    ['ogg', headers.ogg],
    ['m4a', headers.m4a],
    ['aac', headers.aacAdts],
  ])('recognises %s from its first bytes', (format, head) => {
    expect(sniffAudioFormat(head)).toBe(format);
  });

  it.each(Object.entries(notAudio))('refuses %s', (_name, head) => {
    expect(sniffAudioFormat(head)).toBeUndefined();
  });

  it('refuses too few bytes to tell', () => {
    expect(sniffAudioFormat(new Uint8Array())).toBeUndefined();
    expect(sniffAudioFormat(bytes([0xff, 0xfb]))).toBeUndefined();
  });
});

describe('checkUploadedAudio', () => {
  const key = 'uploads/u1/abc.wav';
  const path = objectPathOf(key);

  it('passes a real audio upload and keeps it, with the hash of its bytes', async () => {
    const { store, deleted } = memoryStore({ [key]: headers.wav });

    await expect(checkUploadedAudio(store, 'u1', path)).resolves.toEqual({
      key,
      size: headers.wav.length,
      format: 'wav',
      sha256: sha256Of(headers.wav),
    });
    expect(deleted).toEqual([]);
  });

  it('answers the hash kept when the upload was taken in, without reading the file again', async () => {
    const { store, hashed, recorded } = memoryStore({ [key]: headers.wav });
    recorded.set(key, 'ab'.repeat(32));

    await expect(checkUploadedAudio(store, 'u1', path)).resolves.toMatchObject({ sha256: 'ab'.repeat(32) });
    expect(hashed).toEqual([]);
  });

  it('passes a file of exactly the size limit', async () => {
    const { store } = memoryStore({ [key]: { size: UPLOAD_MAX_BYTES, start: headers.mp3Id3 } });

    await expect(checkUploadedAudio(store, 'u1', path)).resolves.toMatchObject({ format: 'mp3' });
  });

  it('deletes a file one byte over the limit and says how large files may be', async () => {
    const { store, deleted } = memoryStore({ [key]: { size: UPLOAD_MAX_BYTES + 1, start: headers.wav } });

    const error = await domainError(checkUploadedAudio(store, 'u1', path));

    expect([error.kind, error.message]).toEqual(['validation', uploadMessages.tooLarge]);
    expect(deleted).toEqual([key]);
  });

  it('deletes an empty file', async () => {
    const { store, deleted } = memoryStore({ [key]: new Uint8Array() });

    const error = await domainError(checkUploadedAudio(store, 'u1', path));

    expect([error.kind, error.message]).toEqual(['validation', uploadMessages.empty]);
    expect(deleted).toEqual([key]);
  });

  it.each(Object.entries(notAudio))('deletes %s named like audio', async (_name, content) => {
    const { store, deleted } = memoryStore({ [key]: content });

    const error = await domainError(checkUploadedAudio(store, 'u1', path));

    expect([error.kind, error.message]).toEqual(['validation', uploadMessages.notAudio]);
    expect(deleted).toEqual([key]);
  });

  it('answers not found for a missing upload', async () => {
    const { store } = memoryStore({});

    const error = await domainError(checkUploadedAudio(store, 'u1', path));

    expect([error.kind, error.message]).toEqual(['not-found', uploadMessages.notFound]);
  });

  it('never looks at, or deletes, another user’s upload', async () => {
    const theirs = 'uploads/u2/abc.wav';
    const { store, deleted, objects } = memoryStore({ [theirs]: notAudio.text });

    const error = await domainError(checkUploadedAudio(store, 'u1', objectPathOf(theirs)));

    expect([error.kind, error.message]).toEqual(['not-found', uploadMessages.notFound]);
    expect(deleted).toEqual([]);
    expect(objects[theirs]).toBeDefined();
  });
});

describe('acceptUpload', () => {
  const incoming = 'incoming/u1/abc.wav';
  const kept = 'uploads/u1/abc.wav';

  it('moves a checked file to where generations may use it, and answers the same when asked again', async () => {
    const { store, objects, deleted } = memoryStore({ [incoming]: headers.wav });
    const sha256 = sha256Of(headers.wav);

    await expect(acceptUpload(store, 'u1', incoming)).resolves.toEqual({ key: kept, sha256 });
    expect(Object.keys(objects)).toEqual([kept]);
    await expect(acceptUpload(store, 'u1', incoming)).resolves.toEqual({ key: kept, sha256 });
    expect(deleted).toEqual([]);
  });

  it('hashes the kept copy once and keeps the hash with it', async () => {
    const { store, hashed, recorded } = memoryStore({ [incoming]: headers.wav });

    await acceptUpload(store, 'u1', incoming);
    await acceptUpload(store, 'u1', incoming);

    expect(hashed).toEqual([kept]);
    expect(recorded.get(kept)).toBe(sha256Of(headers.wav));
    expect((await store.head(kept))?.sha256).toBe(sha256Of(headers.wav));
  });

  it('finishes the hash when asked again after a call that stopped once the file moved', async () => {
    const { store, recorded } = memoryStore({ [kept]: headers.wav });

    await expect(acceptUpload(store, 'u1', incoming)).resolves.toEqual({
      key: kept,
      sha256: sha256Of(headers.wav),
    });
    expect(recorded.get(kept)).toBe(sha256Of(headers.wav));
  });

  it('hashes nothing that fails the check', async () => {
    const { store, hashed, recorded } = memoryStore({ [incoming]: notAudio.text });

    await domainError(acceptUpload(store, 'u1', incoming));

    expect(hashed).toEqual([]);
    expect(recorded.size).toBe(0);
  });

  it('deletes a file that fails the check and keeps nothing', async () => {
    const { store, objects } = memoryStore({
      [incoming]: { size: UPLOAD_MAX_BYTES + 1, start: headers.wav },
    });

    const error = await domainError(acceptUpload(store, 'u1', incoming));

    expect([error.kind, error.message]).toEqual(['validation', uploadMessages.tooLarge]);
    expect(Object.keys(objects)).toEqual([]);
  });

  it('answers not found for a file that never arrived, or another user’s', async () => {
    const theirs = 'incoming/u2/abc.wav';
    const { store, objects } = memoryStore({ [theirs]: headers.wav });

    expect((await domainError(acceptUpload(store, 'u1', incoming))).kind).toBe('not-found');
    expect((await domainError(acceptUpload(store, 'u1', theirs))).kind).toBe('not-found');
    expect((await domainError(acceptUpload(store, 'u1', kept))).kind).toBe('not-found');
    expect(Object.keys(objects)).toEqual([theirs]);
  });
});
