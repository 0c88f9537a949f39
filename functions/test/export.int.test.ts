import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ListPartsCommand } from '@aws-sdk/client-s3';
import { ownershipMessages } from '@tunesmith/shared/ownership';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoExportRepository } from '../src/adapters/dynamo/export-repository';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { s3Of } from '../src/adapters/s3/client';
import { EXPORT_PART_BYTES } from '../src/adapters/s3/export-archive';
import { s3ExportFiles } from '../src/adapters/s3/export-files';
import type { Manifest } from '../src/domain/exports/archive-layout';
import { STALE_EXPORT_MS } from '../src/domain/exports/export-service';
import { exportKey } from '../src/domain/exports/ports';
import { provenanceOf } from '../src/domain/tracks/provenance';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { type ApiResponse, apiUrl, Browser, mailsTo } from './support/http';
import { storage, wavBytes } from './support/storage';

// Export everything through the HTTP API and the jobs function: the zip's
// contents, one export at a time, owners only, a library big enough to be
// uploaded in parts, the mail with the link, and the failure paths.

const store = direct();
const buckets = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
const exportsTable = dynamoExportRepository(store.documents, store.tableName);
afterAll(() => {
  store.close();
  buckets.close();
});

/** Bytes compared by their hash: a deep equality over megabytes of audio would take minutes. */
const sha256 = (bytes: Uint8Array | undefined) =>
  bytes ? createHash('sha256').update(bytes).digest('hex') : 'missing';
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

/** A finished track of `userId` whose WAV (`bytes`) is stored where the workflow puts it. */
async function aStoredTrack(
  userId: string,
  overrides: Partial<Generation> = {},
  bytes: Uint8Array = wavBytes({ seconds: 0.2 }),
): Promise<Generation & { bytes: Uint8Array }> {
  const id = `exp-${randomUUID()}`;
  const at = new Date(Date.now() - 60_000).toISOString();
  const generation: Generation = {
    id,
    userId,
    type: 'text-to-music',
    title: 'Morning',
    tags: 'lo-fi, chill',
    lyrics: null,
    duration: 42,
    status: 'completed',
    visibility: 'private',
    showInGallery: false,
    inputAudioUrl: null,
    audioUrl: await buckets.putTrackAudio(userId, id, bytes),
    seed: 7,
    falRequestId: 'req',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
  await generations.create(generation);
  return { ...generation, bytes };
}

/** Follows an export until it is no longer preparing (the job runs in the background). */
async function settled(browser: Browser, exportId: string): Promise<ApiResponse> {
  for (let i = 0; i < 900; i++) {
    const res = await browser.get(`/api/user/export/${exportId}`);
    if (res.status !== 200 || res.body.status !== 'preparing') return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Export ${exportId} was still preparing after 90 s`);
}

/** Starts an export and waits for it to end. */
async function exported(browser: Browser): Promise<{ exportId: string; ready: ApiResponse }> {
  const started = await browser.post('/api/user/export', {});
  expect(started.status).toBe(202);
  const exportId = String(started.body.exportId);
  return { exportId, ready: await settled(browser, exportId) };
}

/** The zip behind a ready export's link, with the download's headers. */
async function download(
  url: unknown,
): Promise<{ headers: Headers; files: Record<string, Uint8Array>; size: number }> {
  expect(typeof url).toBe('string');
  expect(new URL(String(url)).origin).toBe(new URL(apiUrl).origin);
  const response = await fetch(String(url));
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { headers: response.headers, files: unzipSync(bytes), size: bytes.length };
}

describe('export everything', () => {
  it('zips every finished track: the WAV as stored, lyrics, provenance, a manifest and a README', async () => {
    const { browser, id, email } = await signedInUser();
    const sung = await aStoredTrack(id, { title: 'Night Drive', lyrics: 'City lights\nall night' });
    const instrumental = await aStoredTrack(
      id,
      { title: 'Rain/Loop', instrumental: true, createdAt: new Date(Date.now() - 30_000).toISOString() },
      wavBytes({ seconds: 0.3 }),
    );
    await aStoredTrack(id, { title: 'Unfinished', status: 'generating', audioUrl: null });

    const { exportId, ready } = await exported(browser);

    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ exportId, status: 'ready', tracksDone: 2, tracksTotal: 2 });
    const expiresIn = Date.parse(String(ready.body.expiresAt)) - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 60 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
    const zip = await download(ready.body.url);
    expect(zip.size).toBe(ready.body.size);
    expect(zip.headers.get('content-disposition')).toMatch(
      /^attachment; filename="tunesmith-export-\d{4}-\d\d-\d\d\.zip"/,
    );

    expect(Object.keys(zip.files).sort()).toEqual(
      [
        '001 Rain_Loop/Rain_Loop.wav',
        '001 Rain_Loop/provenance.json',
        '002 Night Drive/Night Drive.wav',
        '002 Night Drive/lyrics.txt',
        '002 Night Drive/provenance.json',
        'README.txt',
        'manifest.json',
      ].sort(),
    );
    expect(sha256(zip.files['002 Night Drive/Night Drive.wav'])).toBe(sha256(sung.bytes));
    expect(sha256(zip.files['001 Rain_Loop/Rain_Loop.wav'])).toBe(sha256(instrumental.bytes));
    expect(text(zip.files['002 Night Drive/lyrics.txt'])).toBe('City lights\nall night\n');
    const origin = new URL(apiUrl).origin;
    expect(JSON.parse(text(zip.files['002 Night Drive/provenance.json']))).toEqual(
      JSON.parse(JSON.stringify(provenanceOf(sung, origin))),
    );
    const manifest = JSON.parse(text(zip.files['manifest.json'])) as Manifest;
    expect(manifest).toMatchObject({ exportId, user: { email }, trackCount: 2 });
    expect(manifest.tracks.map((t) => [t.id, t.folder, t.files, t.sha256])).toEqual([
      [instrumental.id, '001 Rain_Loop', ['Rain_Loop.wav', 'provenance.json'], sha256(instrumental.bytes)],
      [sung.id, '002 Night Drive', ['Night Drive.wav', 'lyrics.txt', 'provenance.json'], sha256(sung.bytes)],
    ]);
    expect(manifest.tracks[1]?.license).toEqual(provenanceOf(sung, origin).license);
    expect(text(zip.files['README.txt'])).toContain(email);

    // The profile picks it up from the latest export.
    const latest = await browser.get('/api/user/export');
    expect(latest.status).toBe(200);
    expect(latest.body.export).toMatchObject({ exportId, status: 'ready', size: ready.body.size });
  });

  it('mails the owner the link when the export is ready', async () => {
    const { browser, id, email } = await signedInUser();
    const track = await aStoredTrack(id, { title: 'Mailed' });

    const { exportId, ready } = await exported(browser);

    expect(ready.body.status).toBe('ready');
    const mail = (await mailsTo(email)).find((m) => m.subject.includes('ready to download'));
    expect(mail?.subject).toBe('Your Tunesmith music is ready to download');
    const link = mail?.body.text?.match(/https?:\/\/\S+\/exports\/\S+/)?.[0];
    expect(link).toContain(`/${exportKey(id, exportId)}?`);
    const zip = await download(link);
    expect(sha256(zip.files['001 Mailed/Mailed.wav'])).toBe(sha256(track.bytes));
  });

  it('refuses a second export while one is preparing, and lets the user start again once it went stale', async () => {
    const { browser, id } = await signedInUser();
    const running = `exp-${randomUUID()}`;
    const now = new Date().toISOString();
    const record = {
      id: running,
      userId: id,
      status: 'preparing' as const,
      createdAt: now,
      updatedAt: now,
      tracksDone: 3,
      tracksTotal: 40,
      attempts: 1,
    };
    expect(await exportsTable.begin(record, now)).toBe(true);

    const refused = await browser.post('/api/user/export', {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(ownershipMessages.exportRunning);
    const latest = await browser.get('/api/user/export');
    expect(latest.body.export).toMatchObject({
      exportId: running,
      status: 'preparing',
      tracksDone: 3,
      tracksTotal: 40,
    });

    // A job that died an hour ago holds the slot no longer, and its export reads as failed.
    const old = new Date(Date.now() - STALE_EXPORT_MS - 60_000).toISOString();
    const other = await signedInUser();
    const dead = { ...record, id: `exp-${randomUUID()}`, userId: other.id, createdAt: old, updatedAt: old };
    expect(await exportsTable.begin(dead, old)).toBe(true);
    expect((await other.browser.get(`/api/user/export/${dead.id}`)).body.status).toBe('failed');
    const again = await exported(other.browser);
    expect(again.ready.body.status).toBe('ready');
  });

  it("answers 404 for another user's export and an unknown one, and 401 to a visitor", async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const { exportId } = await exported(alice.browser);

    const theirs = await bob.browser.get(`/api/user/export/${exportId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(ownershipMessages.exportNotFound);
    expect((await bob.browser.get(`/api/user/export/${randomUUID()}`)).status).toBe(404);
    expect((await bob.browser.get('/api/user/export')).body).toEqual({ export: null });
    const visitor = new Browser();
    expect((await visitor.get(`/api/user/export/${exportId}`)).status).toBe(401);
    expect((await visitor.post('/api/user/export', {})).status).toBe(401);
  });

  it('refuses a start with an unexpected body', async () => {
    const { browser } = await signedInUser();
    const res = await browser.post('/api/user/export', { everything: false });
    expect(res.status).toBe(400);
  });

  it('writes a library larger than one part in parts, every byte in place', async () => {
    const { browser, id } = await signedInUser();
    const size = Math.ceil(EXPORT_PART_BYTES * 0.6);
    const tracks = [];
    for (let i = 0; i < 3; i++)
      tracks.push(
        await aStoredTrack(
          id,
          { title: `Long ${i}`, createdAt: new Date(Date.now() - 60_000 + i * 1000).toISOString() },
          wavBytes({ seconds: 1, totalBytes: size + i }),
        ),
      );

    const { ready } = await exported(browser);

    expect(ready.body).toMatchObject({ status: 'ready', tracksDone: 3 });
    expect(Number(ready.body.size)).toBeGreaterThan(EXPORT_PART_BYTES);
    const zip = await download(ready.body.url);
    expect(sha256(zip.files['001 Long 2/Long 2.wav'])).toBe(sha256(tracks[2]?.bytes));
    expect(sha256(zip.files['002 Long 1/Long 1.wav'])).toBe(sha256(tracks[1]?.bytes));
    expect(sha256(zip.files['003 Long 0/Long 0.wav'])).toBe(sha256(tracks[0]?.bytes));
  });
});

describe('the zip upload (S3 multipart)', () => {
  /** The tracks bucket through the test's own S3 client, recording every command and the upload id. */
  function recordedFiles() {
    const sent: string[] = [];
    const uploads: string[] = [];
    const client = buckets.client;
    const send = client.send.bind(client) as (command: unknown) => Promise<Record<string, unknown>>;
    const recording = Object.create(client) as typeof client;
    recording.send = (async (command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      const out = await send(command);
      if (typeof out.UploadId === 'string') uploads.push(out.UploadId);
      return out;
    }) as typeof client.send;
    const files = s3ExportFiles(s3Of(recording), buckets.tracksBucket, {
      read: async () => 'unused',
    });
    return { files, sent, uploads };
  }

  it('uploads a zip above one part size in parts of the part size', async () => {
    const { files, sent } = recordedFiles();
    const key = `exports/it-${randomUUID()}/parts.zip`;
    const writer = files.create(key);
    const bytes = wavBytes({ totalBytes: EXPORT_PART_BYTES + 1024 * 1024 });

    await writer.add('big.wav', Readable.from([Buffer.from(bytes)]), { store: true });
    await writer.add('note.txt', 'hello');
    const { size } = await writer.finish();

    expect(sent.filter((name) => name === 'UploadPartCommand')).toHaveLength(2);
    expect(sent).toContain('CreateMultipartUploadCommand');
    expect(sent).toContain('CompleteMultipartUploadCommand');
    expect(sent).not.toContain('PutObjectCommand');
    const stored = unzipSync(
      await buckets.storedBytes(`s3://${buckets.tracksBucket}/${key}`).then((b) => new Uint8Array(b)),
    );
    expect(sha256(stored['big.wav'])).toBe(sha256(bytes));
    expect(text(stored['note.txt'])).toBe('hello');
    expect(size).toBeGreaterThan(bytes.length);
    await buckets.remove(buckets.tracksBucket, key);
  });

  it('aborts the multipart upload when an entry fails, leaving no object and no parts', async () => {
    const { files, sent, uploads } = recordedFiles();
    const key = `exports/it-${randomUUID()}/broken.zip`;
    const writer = files.create(key);
    const chunk = Buffer.alloc(1024 * 1024, 1);
    let produced = 0;
    const failing = new Readable({
      read() {
        produced += 1;
        if (produced <= 10) {
          this.push(chunk);
          return;
        }
        // Fails once the upload in parts has begun (more than a part's bytes have gone in).
        const failOnceStarted = () => {
          if (uploads.length > 0) this.destroy(new Error('storage went away'));
          else setTimeout(failOnceStarted, 10);
        };
        failOnceStarted();
      },
    });

    await expect(writer.add('broken.wav', failing, { store: true })).rejects.toThrow();
    await writer.abort();

    expect(sent).toContain('CreateMultipartUploadCommand');
    expect(sent).toContain('AbortMultipartUploadCommand');
    expect(sent).not.toContain('CompleteMultipartUploadCommand');
    expect(await buckets.exists(buckets.tracksBucket, key)).toBe(false);
    await expect(
      buckets.client.send(
        new ListPartsCommand({ Bucket: buckets.tracksBucket, Key: key, UploadId: uploads[0] }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });
});
