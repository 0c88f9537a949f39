import { uploadMessages } from '@tunesmith/shared/uploads';
import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { DomainError } from '../errors';
import type { UploadStore } from '../uploads/uploads';
import { listOwnTracks, takeInUpload, V1_PAGE_MAX, v1PageMessages } from './v1-service';

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('listOwnTracks', () => {
  const store = inMemoryGenerationStore([
    ...Array.from({ length: 5 }, (_, i) =>
      aGeneration({ id: `t${i}`, userId: 'me', createdAt: `2026-11-0${i + 1}T00:00:00.000Z` }),
    ),
    aGeneration({ id: 'theirs', userId: 'them', createdAt: '2026-11-09T00:00:00.000Z' }),
  ]);

  it('pages through the owner’s tracks newest first, the last page without a cursor', async () => {
    const first = await listOwnTracks({ generations: store }, { id: 'me' }, { limit: '2' });
    const second = await listOwnTracks(
      { generations: store },
      { id: 'me' },
      { limit: '2', cursor: first.next ?? '' },
    );
    const last = await listOwnTracks(
      { generations: store },
      { id: 'me' },
      { limit: '2', cursor: second.next ?? '' },
    );

    expect([first, second, last].flatMap((p) => p.tracks.map((t) => t.id))).toEqual([
      't4',
      't3',
      't2',
      't1',
      't0',
    ]);
    expect(last.next).toBeNull();
  });

  it('refuses a limit outside 1 to the maximum', async () => {
    for (const limit of ['0', String(V1_PAGE_MAX + 1)]) {
      const error = await refusal(listOwnTracks({ generations: store }, { id: 'me' }, { limit }));
      expect(error.message).toBe(v1PageMessages.limitInvalid);
    }
  });
});

describe('takeInUpload', () => {
  const wav = new Uint8Array([...Buffer.from('RIFF'), 36, 0, 0, 0, ...Buffer.from('WAVEfmt '), 16, 0, 0, 0]);
  function uploads(objects: Record<string, Uint8Array>): UploadStore {
    return {
      head: async (key) =>
        objects[key] ? { size: objects[key].length, sha256: `sha-of-${key}` } : undefined,
      readStart: async (key, n) => (objects[key] as Uint8Array).subarray(0, n),
      delete: async (key) => {
        delete objects[key];
      },
      move: async (from, to) => {
        objects[to] = objects[from] as Uint8Array;
        delete objects[from];
      },
      sha256: async (key) => `sha-of-${key}`,
      recordSha256: async () => {},
    };
  }

  it('takes in the file the program PUT, then finds it kept on a later use', async () => {
    const objects = { 'incoming/me/abc.wav': wav };
    const store = uploads(objects);

    const first = await takeInUpload(store, 'me', '/objects/uploads/me/abc.wav');
    const again = await takeInUpload(store, 'me', '/objects/uploads/me/abc.wav');

    expect(first.key).toBe('uploads/me/abc.wav');
    expect(Object.keys(objects)).toEqual(['uploads/me/abc.wav']);
    expect(again.sha256).toBe(first.sha256);
  });

  it('answers not found for another user’s upload or one never sent', async () => {
    const store = uploads({ 'incoming/them/abc.wav': wav });

    for (const path of ['/objects/uploads/them/abc.wav', '/objects/uploads/me/none.wav']) {
      const error = await refusal(takeInUpload(store, 'me', path));
      expect(error.kind).toBe('not-found');
      expect(error.message).toBe(uploadMessages.notFound);
    }
  });
});
