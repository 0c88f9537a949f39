import { createHash } from 'node:crypto';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { parseBuffer } from 'music-metadata';
import { afterAll, expect, it } from 'vitest';
import { loadC2pa } from '../src/adapters/c2pa/content-credentials';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { readOggPages } from '../src/domain/audio/testing';
import { wavDurationSeconds } from '../src/workflow/wav';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl, type Browser } from './support/http';
import { subscribe } from './support/plans';
import { paidGeneration } from './support/run';
import { storage } from './support/storage';

// The players' compressed copy, end to end: the workflow (the same code as the
// Lambdas, run by the local cloud) marks the WAV (LIST/INFO, XMP, content
// credentials), records its hash and loudness, writes tracks/{id}.opus beside it,
// players get a link to it that serves Ogg Opus with ranges, the download
// stays the WAV, and deleting the track takes both. On a stage it makes a real
// fal generation, so it runs there only when the run may pay for it.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);

afterAll(() => {
  files.close();
  store.close();
});

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, to)).toString('latin1');

async function completed(browser: Browser, id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    // Completed plays at once; the files this reads are all there once the download is prepared too.
    const { status, downloadReady } = (await browser.get(`/api/generation/${id}/status`)).body as {
      status: string;
      downloadReady: boolean;
    };
    if (status === 'completed' && downloadReady) return;
    if (status === 'failed') throw new Error(`Generation ${id} failed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish`);
}

paidGeneration.describe('the compressed copy of a track', () => {
  it('is made beside the WAV, played with ranges, not downloaded, and deleted with the track', {
    timeout: 120_000,
  }, async () => {
    const { browser, id: userId } = await signedInUser();
    await subscribe(store, userId);
    const res = await browser.post('/api/generate-text-to-music', {
      tags: 'lofi, piano',
      lyrics: '',
      duration: 6,
      title: 'Small Hours',
      visibility: 'private',
    });
    expect(res.status).toBe(201);
    const id = String(res.body.generationId);
    await completed(browser, id);

    const stored = await generations.get(id);
    expect(stored?.audioUrl).toBe(`s3://${files.tracksBucket}/tracks/${id}.wav`);
    expect(stored?.streamAudioUrl).toBe(`s3://${files.tracksBucket}/tracks/${id}.opus`);
    const wav = await files.storedBytes(stored?.audioUrl as string);
    const opus = await files.storedBytes(stored?.streamAudioUrl as string);
    // Both files say they are AI-made and where their record is, read by a library that did not write them.
    const origin = new URL(apiUrl).origin;
    const wavTags = await parseBuffer(wav, { mimeType: 'audio/wav' });
    expect(wavTags.common.title).toBe('Small Hours');
    // The site's name is whatever Site Name says when the track completes (other tests may change it).
    const site = wavTags.common.artist as string;
    expect(site.length).toBeGreaterThan(0);
    const comment = `Made with AI (ACE-Step) on ${site}. Provenance: ${origin}/api/track/${id}/provenance`;
    const text = wavTags.common.comment?.[0]?.text ?? '';
    expect(text.startsWith(comment)).toBe(true);
    expect(text.slice(comment.length)).toMatch(/^( License: .+)?$/);
    expect(new TextDecoder().decode(wav)).toContain(`Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPE}"`);
    const opusTags = await parseBuffer(opus, { mimeType: 'audio/ogg' });
    expect(opusTags.common.title).toBe('Small Hours');
    expect(opusTags.common.comment?.[0]?.text).toBe(wavTags.common.comment?.[0]?.text);
    expect(opusTags.native.vorbis?.find((t) => t.id === 'DIGITALSOURCETYPE')?.value).toBe(
      DIGITAL_SOURCE_TYPE,
    );
    // Signed content credentials (C2PA) cover the WAV, marking included. The signer's root is the site's
    // own, which no validator trusts unless told to, so it is valid rather than trusted.
    const c2pa = await loadC2pa();
    const reader = await c2pa.WasmReader.fromBytes('audio/wav', wav);
    const report = JSON.parse(reader.json()) as {
      validation_state: string;
      active_manifest: string;
      manifests: Record<string, { assertions: { label: string; data: { actions?: unknown[] } }[] }>;
    };
    reader.free();
    expect(report.validation_state).toBe('Valid');
    const created = report.manifests[report.active_manifest]?.assertions.find((a) =>
      a.label.startsWith('c2pa.actions'),
    );
    expect(created?.data.actions).toEqual([
      expect.objectContaining({ action: 'c2pa.created', digitalSourceType: DIGITAL_SOURCE_TYPE }),
    ]);
    // The hash on the track is the stored WAV's, exactly.
    expect(stored?.audioSha256).toBe(createHash('sha256').update(wav).digest('hex'));
    // Ogg Opus of the same length, about a fourteenth of the WAV's size.
    const pages = readOggPages(opus);
    expect(pages.every((p) => p.crcOk)).toBe(true);
    expect(ascii(pages[0]?.packets[0] as Uint8Array, 0, 8)).toBe('OpusHead');
    const preSkip = Buffer.from(pages[0]?.packets[0] as Uint8Array).readUInt16LE(10);
    expect((Number(pages.at(-1)?.granule) - preSkip) / 48_000).toBeCloseTo(wavDurationSeconds(wav) ?? 0, 3);
    expect(opus.length).toBeLessThan(wav.length / 8);

    // Every answer that plays the track links the copy, which a browser can fetch and seek.
    const status = (await browser.get(`/api/generation/${id}/status`)).body as { audioUrl: string };
    const own = (await browser.get(`/api/track/${id}`)).body as { audioUrl: string; loudness: unknown };
    // The track object carries the master's loudness and the stream's gain.
    expect(own.loudness).toEqual(stored?.loudness);
    expect(own.loudness).toEqual({
      integratedLufs: expect.any(Number),
      truePeakDbtp: expect.any(Number),
      streamGainDb: expect.any(Number),
    });
    const library = (await browser.get('/api/my-generations')).body as unknown as {
      id: string;
      audioUrl: string;
    }[];
    const links = [status.audioUrl, own.audioUrl, library.find((t) => t.id === id)?.audioUrl ?? ''];
    for (const link of links) {
      expect(link).toMatch(/^https?:\/\//);
      const played = await fetch(link);
      expect(played.status).toBe(200);
      expect(played.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
      expect(new Uint8Array(await played.arrayBuffer())).toEqual(opus);
    }
    const range = await fetch(links[0] as string, { headers: { range: 'bytes=1000-1999' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 1000-1999/${opus.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(opus.subarray(1000, 2000));

    const download = await browser.get(`/api/generation/${id}/download`);
    expect([download.status, download.body.filename]).toEqual([200, 'Small Hours.wav']);
    const saved = await fetch(String(download.body.url));
    expect(ascii(new Uint8Array(await saved.arrayBuffer()), 0, 4)).toBe('RIFF');

    expect((await browser.call('DELETE', `/api/generation/${id}`)).status).toBe(204);
    expect(await files.storedExists(stored?.audioUrl as string)).toBe(false);
    expect(await files.storedExists(stored?.streamAudioUrl as string)).toBe(false);
  });
});
