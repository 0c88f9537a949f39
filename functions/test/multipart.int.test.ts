import { UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import { MULTIPART_MIN_PART_BYTES, uploadMessages } from '@tunesmith/shared/uploads';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOAD_RESERVATIONS } from '../src/domain/uploads/uploads';
import { signedInUser } from './support/accounts';
import { Browser } from './support/http';
import { paidGeneration } from './support/run';
import { storage, wavBytes } from './support/storage';

// Uploads in parts through the upload dialog's calls (spec 1, "Upload dialog
// calls") and straight into the uploads bucket with the signed part links, as
// the browser sends a file over 5 MiB: the server keeps the rules of a single
// upload, judged from what storage holds.

const buckets = storage();
afterAll(() => buckets.close());

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type Part = { PartNumber: number; ETag: string };

const PART = MULTIPART_MIN_PART_BYTES;
const q = (key: string) => `?${new URLSearchParams({ key })}`;

async function create(user: Signed, body: unknown = { filename: 'Long Song.wav', type: 'audio/wav' }) {
  const res = await user.browser.post('/api/s3/multipart', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { key: string; uploadId: string };
}

/** Signs a link for one part of `size` bytes (null: the request leaves the size out). */
const sign = (
  user: Signed,
  uploadId: string,
  partNumber: number | string,
  key: string,
  size: number | null = PART,
) =>
  user.browser.get(
    `/api/s3/multipart/${encodeURIComponent(uploadId)}/${partNumber}?${new URLSearchParams({
      key,
      ...(size === null ? {} : { size: String(size) }),
    })}`,
  );

/** PUTs bytes to a signed part link; the status and the ETag storage answered. */
async function putPart(
  url: string,
  body: Uint8Array<ArrayBuffer>,
): Promise<{ status: number; etag: string }> {
  const response = await fetch(url, { method: 'PUT', body });
  await response.arrayBuffer();
  return { status: response.status, etag: response.headers.get('etag') ?? '' };
}

/** Signs and sends each chunk as the next part; the parts to complete with. */
async function sendParts(
  user: Signed,
  upload: { key: string; uploadId: string },
  chunks: Uint8Array<ArrayBuffer>[],
) {
  const parts: Part[] = [];
  for (const [index, chunk] of chunks.entries()) {
    const signed = await sign(user, upload.uploadId, index + 1, upload.key, chunk.byteLength);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const sent = await putPart(String(signed.body.url), chunk);
    expect(sent.status).toBe(200);
    parts.push({ PartNumber: index + 1, ETag: sent.etag });
  }
  return parts;
}

const complete = (user: Signed, upload: { key: string; uploadId: string }, parts: Part[]) =>
  user.browser.post(`/api/s3/multipart/${encodeURIComponent(upload.uploadId)}/complete${q(upload.key)}`, {
    parts,
  });
const list = (user: Signed, upload: { key: string; uploadId: string }) =>
  user.browser.get(`/api/s3/multipart/${encodeURIComponent(upload.uploadId)}${q(upload.key)}`);
const abort = (user: Signed, upload: { key: string; uploadId: string }) =>
  user.browser.call('DELETE', `/api/s3/multipart/${encodeURIComponent(upload.uploadId)}${q(upload.key)}`);

/** A real WAV of `total` bytes, cut into 5 MiB parts (the last one smaller). */
function wavInParts(total: number): Uint8Array<ArrayBuffer>[] {
  const wav = wavBytes({ totalBytes: total });
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let start = 0; start < wav.length; start += PART) chunks.push(wav.slice(start, start + PART));
  return chunks;
}

describe('uploads in parts', () => {
  it('creates in the user’s incoming prefix, takes real parts, lists them, completes and checks the file', async () => {
    const user = await signedInUser();
    const upload = await create(user);
    expect(upload.key).toMatch(new RegExp(`^incoming/${user.id}/[0-9a-f-]{36}\\.wav$`));
    expect(upload.uploadId).toBeTruthy();

    const signed = await sign(user, upload.uploadId, 1, upload.key);
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ headers: {}, expires: expect.any(Number) });
    expect(new URL(String(signed.body.url)).searchParams.get('X-Amz-Signature')).toBeTruthy();

    const chunks = wavInParts(2 * PART + 1000);
    const parts = await sendParts(user, upload, chunks);

    const listed = await list(user, upload);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { PartNumber: 1, ETag: parts[0]?.ETag, Size: PART },
      { PartNumber: 2, ETag: parts[1]?.ETag, Size: PART },
      { PartNumber: 3, ETag: parts[2]?.ETag, Size: 1000 },
    ]);

    const done = await complete(user, upload, parts);

    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const objectPath = `/objects/uploads/${upload.key.slice('incoming/'.length)}`;
    expect(done.body).toEqual({
      location: objectPath,
      key: objectPath.slice('/objects/'.length),
      objectPath,
    });
    // Checked and moved out of the area that expires, whole.
    expect(await buckets.exists(buckets.uploadsBucket, upload.key)).toBe(false);
    expect(await buckets.exists(buckets.uploadsBucket, String(done.body.key))).toBe(true);
    // The upload is over: nothing is left to list.
    expect((await list(user, upload)).status).toBe(404);
  });

  paidGeneration.it('gives a path a generation takes, as a single upload does', async () => {
    const user = await signedInUser();
    const upload = await create(user);
    const parts = await sendParts(user, upload, wavInParts(PART + 4000));
    const done = await complete(user, upload, parts);
    expect(done.status).toBe(200);

    const res = await user.browser.post('/api/generate-audio-to-music', {
      tags: 'rock',
      lyrics: '',
      inputAudioUrl: done.body.objectPath,
      visibility: 'public',
    });

    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('refuses a file type that is not allowed, before anything is stored', async () => {
    const user = await signedInUser();
    for (const body of [
      { filename: 'notes.txt', type: 'text/plain' },
      { filename: 'song.mp3', type: 'text/html' },
      { type: 'audio/wav' },
    ]) {
      const res = await user.browser.post('/api/s3/multipart', body);
      expect([res.status, res.body.message]).toEqual([400, uploadMessages.typeNotAllowed]);
    }
  });

  it('cannot sign without a key, and signs only part numbers 1 to 10000', async () => {
    const user = await signedInUser();
    const upload = await create(user);

    const noKey = await user.browser.get(`/api/s3/multipart/${upload.uploadId}/1`);
    expect([noKey.status, noKey.body.message]).toEqual([
      400,
      'Cannot sign without a key, an uploadId, and a partNumber',
    ]);
    for (const partNumber of ['0', '10001', 'x']) {
      const res = await sign(user, upload.uploadId, partNumber, upload.key);
      expect([res.status, res.body.message]).toEqual([400, uploadMessages.partNumberRange]);
    }
    expect((await sign(user, upload.uploadId, 10_000, upload.key)).status).toBe(200);
  });

  it('keeps a user off another user’s upload: their key, or their upload id with one’s own key', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const alices = await create(alice);
    const alicesWav = wavBytes();
    const alicesParts = await sendParts(alice, alices, [alicesWav]);
    const bobs = await create(bob);

    for (const target of [alices, { key: bobs.key, uploadId: alices.uploadId }]) {
      const bobsWav = wavBytes();
      const signed = await sign(bob, target.uploadId, 1, target.key, bobsWav.byteLength);
      if (target.key === alices.key) expect(signed.status).toBe(404);
      else {
        // Bob may sign his own key, but storage refuses the part: that upload id is not his key's.
        expect(signed.status).toBe(200);
        expect((await putPart(String(signed.body.url), bobsWav)).status).toBe(404);
      }
      expect((await list(bob, target)).status).toBe(404);
      expect((await complete(bob, target, alicesParts)).status).toBe(404);
      expect((await abort(bob, target)).status).toBe(404);
    }
    // Alice's upload came through all of it.
    expect((await list(alice, alices)).body).toEqual([
      { PartNumber: 1, ETag: alicesParts[0]?.ETag, Size: alicesWav.length },
    ]);
    expect((await complete(alice, alices, alicesParts)).status).toBe(200);
  });

  it('judges the total from storage’s parts and keeps nothing of an upload over 50485760 bytes', async () => {
    const user = await signedInUser();
    const upload = await create(user);
    const chunks = wavInParts(UPLOAD_MAX_BYTES + 1);
    const parts = await sendParts(user, upload, chunks);

    const res = await complete(user, upload, parts);

    expect([res.status, res.body.message]).toEqual([400, uploadMessages.tooLarge]);
    expect((await list(user, upload)).status).toBe(404);
    expect(await buckets.exists(buckets.uploadsBucket, upload.key)).toBe(false);
    expect(
      await buckets.exists(buckets.uploadsBucket, `uploads/${upload.key.slice('incoming/'.length)}`),
    ).toBe(false);
  });

  it('refuses to join a part under 5 MiB that is not the last, or a part with another ETag', async () => {
    const user = await signedInUser();
    const upload = await create(user);
    const parts = await sendParts(user, upload, [
      wavBytes({ totalBytes: 1000 }),
      wavBytes({ totalBytes: 1000 }),
    ]);

    const small = await complete(user, upload, parts);
    const forged = await complete(user, upload, [
      { PartNumber: 1, ETag: '"0123456789abcdef0123456789abcdef"' },
    ]);

    expect([small.status, small.body.message]).toEqual([400, uploadMessages.partTooSmall]);
    expect([forged.status, forged.body.message]).toEqual([400, uploadMessages.partMissing]);
    // Still there to finish properly.
    expect((await complete(user, upload, parts.slice(0, 1))).status).toBe(200);
  });

  it('deletes a joined file that is not audio', async () => {
    const user = await signedInUser();
    const upload = await create(user, { filename: 'song.mp3', type: 'audio/mpeg' });
    const parts = await sendParts(user, upload, [new TextEncoder().encode('not a song, just words\n')]);

    const res = await complete(user, upload, parts);

    expect([res.status, res.body.message]).toEqual([400, uploadMessages.notAudio]);
    expect(await buckets.exists(buckets.uploadsBucket, upload.key)).toBe(false);
  });

  it('aborts: the parts are gone and no part can be added', async () => {
    const user = await signedInUser();
    const upload = await create(user);
    await sendParts(user, upload, [wavBytes({ totalBytes: 1000 })]);
    const late = wavBytes();
    const signed = await sign(user, upload.uploadId, 2, upload.key, late.byteLength);

    const res = await abort(user, upload);

    expect(res.status).toBe(204);
    expect((await list(user, upload)).status).toBe(404);
    expect((await putPart(String(signed.body.url), late)).status).toBe(404);
    expect((await abort(user, upload)).status).toBe(404);
  });

  it('refuses a part sent with a tampered or expired link', async () => {
    const user = await signedInUser();
    const upload = await create(user);
    const body = wavBytes();
    const signed = await sign(user, upload.uploadId, 1, upload.key, body.byteLength);
    const url = new URL(String(signed.body.url));
    url.searchParams.set('partNumber', '2');
    expect((await putPart(url.toString(), body)).status).toBe(403);

    // A link signed two hours ago for one hour, with the same keys as the API's.
    const expired = await getSignedUrl(
      buckets.client,
      new UploadPartCommand({
        Bucket: buckets.uploadsBucket,
        Key: upload.key,
        UploadId: upload.uploadId,
        PartNumber: 1,
      }),
      { expiresIn: 3600, signingDate: new Date(Date.now() - 2 * 3600 * 1000) },
    );
    expect((await putPart(expired, wavBytes())).status).toBe(403);
    expect((await list(user, upload)).body).toEqual([]);
  });

  it('signs each part link for one size, as a single upload is: more bytes than signed are refused', async () => {
    const user = await signedInUser();
    const upload = await create(user);
    for (const size of [null, 0, 50_485_761]) {
      const res = await sign(user, upload.uploadId, 1, upload.key, size);
      expect([res.status, res.body.message], String(size)).toEqual([400, uploadMessages.partSizeRange]);
    }

    const signed = await sign(user, upload.uploadId, 1, upload.key, 1000);
    expect(new URL(String(signed.body.url)).searchParams.get('X-Amz-SignedHeaders')).toContain(
      'content-length',
    );
    expect((await putPart(String(signed.body.url), new Uint8Array(2000))).status).toBe(403);
    expect((await list(user, upload)).body).toEqual([]);
    expect((await putPart(String(signed.body.url), new Uint8Array(1000))).status).toBe(200);
  });

  it('counts each upload in parts against the hour’s allowance of upload links', async () => {
    const user = await signedInUser();
    for (let i = 0; i < UPLOAD_RESERVATIONS.perUser; i++) await create(user);

    const res = await user.browser.post('/api/s3/multipart', { filename: 'a.wav', type: 'audio/wav' });
    const single = await user.browser.post('/api/objects/upload', {});

    expect([res.status, res.body.message]).toEqual([429, uploadMessages.tooManyReservations]);
    expect(single.status).toBe(429);
  });

  it('asks for a session', async () => {
    const visitor = { browser: new Browser() } as Signed;
    expect((await visitor.browser.post('/api/s3/multipart', { filename: 'a.wav' })).status).toBe(401);
    expect((await sign(visitor, 'x', 1, 'incoming/x/a.wav')).status).toBe(401);
    expect((await list(visitor, { key: 'incoming/x/a.wav', uploadId: 'x' })).status).toBe(401);
    expect((await abort(visitor, { key: 'incoming/x/a.wav', uploadId: 'x' })).status).toBe(401);
  });
});
