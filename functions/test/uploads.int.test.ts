import { UPLOAD_MAX_BYTES } from '@tunesmith/shared/constants';
import { uploadMessages } from '@tunesmith/shared/uploads';
import { afterAll, describe, expect, it } from 'vitest';
import { signedInUser } from './support/accounts';
import { Browser } from './support/http';
import { storage, wavBytes } from './support/storage';

// Uploads through the HTTP API and straight into the uploads bucket, as the
// upload dialog does: the server, not the browser, enforces where a file may
// go, its type and its size.

const buckets = storage();
afterAll(() => buckets.close());

type Signed = Awaited<ReturnType<typeof signedInUser>>;

async function reserve(user: Signed, body?: unknown) {
  const res = await user.browser.post('/api/objects/upload', body);
  expect(res.status).toBe(200);
  return res.body as { uploadURL: string; objectPath: string };
}

async function put(uploadURL: string, body: Uint8Array<ArrayBuffer>, contentType?: string): Promise<number> {
  const response = await fetch(uploadURL, {
    method: 'PUT',
    body,
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  });
  await response.arrayBuffer();
  return response.status;
}

const normalize = (user: Signed | { browser: Browser }, uploadURL: string) =>
  user.browser.post('/api/objects/normalize-path', { uploadURL });

const keyOf = (objectPath: string) => objectPath.replace(/^\/objects\//, '');
/** Where the browser's PUT puts the file: the upload link's key, before any check. */
const incomingKeyOf = (uploadURL: string) => {
  const path = decodeURIComponent(new URL(uploadURL).pathname);
  return path.slice(path.indexOf('/incoming/') + 1);
};

describe('uploads', () => {
  it('reserves a link in the user’s prefix, takes a real WAV and normalizes it to its object path', async () => {
    const user = await signedInUser();
    const wav = wavBytes();

    const { uploadURL, objectPath } = await reserve(user, {
      filename: 'My Song.wav',
      contentType: 'audio/wav',
      size: wav.length,
    });
    expect(objectPath).toMatch(new RegExp(`^/objects/uploads/${user.id}/[0-9a-f-]{36}\\.wav$`));
    expect(new URL(uploadURL).searchParams.get('X-Amz-Signature')).toBeTruthy();
    expect(await put(uploadURL, wav, 'audio/wav')).toBe(200);

    const res = await normalize(user, uploadURL);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ objectPath });
    expect(await buckets.exists(buckets.uploadsBucket, keyOf(objectPath))).toBe(true);
    // Checked files move out of the area that expires.
    expect(incomingKeyOf(uploadURL)).toMatch(new RegExp(`^incoming/${user.id}/`));
    expect(await buckets.exists(buckets.uploadsBucket, incomingKeyOf(uploadURL))).toBe(false);
    // Upload widgets report the object's address without the signature; it names the same upload.
    const bare = uploadURL.slice(0, uploadURL.indexOf('?'));
    expect((await normalize(user, bare)).body).toEqual({ objectPath });
  });

  it('reserves without a description, as the spec’s call sends no body', async () => {
    const user = await signedInUser();
    const { uploadURL, objectPath } = await reserve(user);
    expect(objectPath).toMatch(new RegExp(`^/objects/uploads/${user.id}/[0-9a-f-]{36}$`));
    expect(await put(uploadURL, wavBytes())).toBe(200);

    expect((await normalize(user, uploadURL)).body).toEqual({ objectPath });
  });

  it('refuses at reserve time a file described as too large or of another type', async () => {
    const user = await signedInUser();
    const refused = async (body: unknown) => {
      const res = await user.browser.post('/api/objects/upload', body);
      return [res.status, res.body.message];
    };

    expect(await refused({ filename: 'big.wav', size: UPLOAD_MAX_BYTES + 1 })).toEqual([
      400,
      uploadMessages.tooLarge,
    ]);
    expect(await refused({ filename: 'notes.txt', size: 10 })).toEqual([400, uploadMessages.typeNotAllowed]);
    expect(await refused({ filename: 'song.mp3', contentType: 'text/plain' })).toEqual([
      400,
      uploadMessages.typeNotAllowed,
    ]);
    expect(await refused({ filename: 'empty.wav', size: 0 })).toEqual([400, uploadMessages.empty]);
  });

  it('deletes an upload over the size limit once it lands, whatever the browser said', async () => {
    const user = await signedInUser();
    const { uploadURL, objectPath } = await reserve(user, { filename: 'big.wav', contentType: 'audio/wav' });
    expect(await put(uploadURL, wavBytes({ totalBytes: UPLOAD_MAX_BYTES + 1 }), 'audio/wav')).toBe(200);
    expect(await buckets.exists(buckets.uploadsBucket, incomingKeyOf(uploadURL))).toBe(true);

    const res = await normalize(user, uploadURL);

    expect([res.status, res.body.message]).toEqual([400, uploadMessages.tooLarge]);
    expect(await buckets.exists(buckets.uploadsBucket, incomingKeyOf(uploadURL))).toBe(false);
    expect(await buckets.exists(buckets.uploadsBucket, keyOf(objectPath))).toBe(false);
  });

  it('lets no generation use a file before it was checked', async () => {
    const user = await signedInUser();
    const { uploadURL, objectPath } = await reserve(user, { filename: 'a.wav' });
    expect(await put(uploadURL, wavBytes())).toBe(200);

    const res = await user.browser.post('/api/generate-audio-to-music', {
      tags: 'jazz',
      lyrics: '',
      inputAudioUrl: objectPath,
      visibility: 'public',
    });

    expect([res.status, res.body.message]).toEqual([404, uploadMessages.notFound]);
  });

  it('deletes a text file named like an MP3', async () => {
    const user = await signedInUser();
    const { uploadURL, objectPath } = await reserve(user, {
      filename: 'song.mp3',
      contentType: 'audio/mpeg',
    });
    expect(await put(uploadURL, new TextEncoder().encode('not a song, just words\n'), 'audio/mpeg')).toBe(
      200,
    );

    const res = await normalize(user, uploadURL);

    expect([res.status, res.body.message]).toEqual([400, uploadMessages.notAudio]);
    expect(await buckets.exists(buckets.uploadsBucket, incomingKeyOf(uploadURL))).toBe(false);
    expect(await buckets.exists(buckets.uploadsBucket, keyOf(objectPath))).toBe(false);
  });

  it('answers not found for an upload that never arrived', async () => {
    const user = await signedInUser();
    const { uploadURL } = await reserve(user);

    const res = await normalize(user, uploadURL);

    expect([res.status, res.body.message]).toEqual([404, uploadMessages.notFound]);
  });

  it('answers not found for another user’s upload and leaves it alone', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const { uploadURL } = await reserve(alice, { filename: 'a.wav' });
    expect(await put(uploadURL, wavBytes())).toBe(200);

    const res = await normalize(bob, uploadURL);

    expect([res.status, res.body.message]).toEqual([404, uploadMessages.notFound]);
    expect(await buckets.exists(buckets.uploadsBucket, incomingKeyOf(uploadURL))).toBe(true);
  });

  it('answers not found for a URL outside the uploads bucket', async () => {
    const user = await signedInUser();
    const { uploadURL } = await reserve(user, { filename: 'a.wav' });
    expect(await put(uploadURL, wavBytes())).toBe(200);
    const otherBucket = uploadURL.replace(`/${buckets.uploadsBucket}/`, `/${buckets.tracksBucket}/`);
    expect(otherBucket).not.toBe(uploadURL);

    for (const url of [otherBucket, 'not a url', `https://example.com/${incomingKeyOf(uploadURL)}`]) {
      const res = await normalize(user, url);
      expect([res.status, res.body.message]).toEqual([404, uploadMessages.notFound]);
    }
    expect((await normalize(user, '')).body.message).toBe(uploadMessages.uploadUrlRequired);
  });

  it('asks for a session', async () => {
    const visitor = new Browser();
    expect((await visitor.post('/api/objects/upload', {})).status).toBe(401);
    expect((await normalize({ browser: visitor }, 'http://127.0.0.1/x')).status).toBe(401);
  });
});
