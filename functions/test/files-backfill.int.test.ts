import { createHash, randomUUID } from 'node:crypto';
import { DIGITAL_SOURCE_TYPE } from '@tunesmith/shared/ownership';
import { parseBuffer } from 'music-metadata';
import { afterAll, expect } from 'vitest';
import { filesStep, runFilesBackfill } from '../../scripts/backfill/files';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { parseWav } from '../src/domain/audio/wav';
import type { Generation } from '../src/domain/tracks/track';
import type { FilesBackfillOutcome } from '../src/workflow/files-backfill';
import { direct } from './support/direct';
import { apiUrl, Browser, cloudEnv } from './support/http';
import { localOnly } from './support/run';
import { storage, wavBytes } from './support/storage';

// `npm run backfill -- files` against the local cloud: a track completed before
// the files were marked gets a marked, hashed and measured WAV and a
// normalised stream under new keys, its record points at them and plays
// them, the old files go, and a second run changes nothing.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);

afterAll(() => {
  files.close();
  store.close();
});

localOnly('runs on the local cloud, whose bucket and table it rewrites').it(
  'npm run backfill -- files marks, measures and normalises a track from before, once',
  { timeout: 120_000 },
  async () => {
    const id = `old-${randomUUID()}`;
    // After the peaks backfill's test track (2001-01-01) and before anything else, so the runs take this one alone.
    const createdAt = '2001-03-01T00:00:00.000Z';
    const onlyThis = { createdAfter: '2001-02-28T00:00:00.000Z', createdBefore: '2001-03-01T00:00:01.000Z' };
    const wav = wavBytes({ seconds: 2 });
    const audioUrl = await files.putTrackAudio('someone', id, wav);
    const track: Generation = {
      id,
      userId: `user-${randomUUID()}`,
      type: 'text-to-music',
      title: 'Old Song',
      tags: 'folk',
      lyrics: null,
      duration: 2,
      status: 'completed',
      visibility: 'public',
      showInGallery: true,
      inputAudioUrl: null,
      audioUrl,
      seed: 1,
      falRequestId: null,
      createdAt,
      updatedAt: createdAt,
    };
    await generations.create(track);

    const seen: FilesBackfillOutcome[] = [];
    const dry = await runFilesBackfill(cloudEnv, { ...onlyThis, dryRun: true, onTrack: (o) => seen.push(o) });
    expect(seen).toEqual([{ id, result: 'would-make' }]);
    expect(dry.made).toBe(0);

    const first = await runFilesBackfill(cloudEnv, onlyThis);
    expect(first).toEqual({
      checked: 1,
      alreadyHad: 0,
      made: 1,
      prepared: 0,
      wouldMake: 0,
      skipped: 0,
      failed: 0,
    });
    const after = (await generations.get(id)) as Generation;
    expect(after.audioUrl).toMatch(
      new RegExp(`^s3://${files.tracksBucket}/tracks/${id}-[0-9a-f]{16}\\.wav$`),
    );
    expect(after.streamAudioUrl).toBe(after.audioUrl?.replace(/\.wav$/, '.opus'));
    const marked = await files.storedBytes(after.audioUrl as string);
    expect(after.audioSha256).toBe(createHash('sha256').update(marked).digest('hex'));
    expect(after.loudness).toEqual({
      integratedLufs: expect.any(Number),
      truePeakDbtp: expect.any(Number),
      streamGainDb: expect.any(Number),
    });
    const { common } = await parseBuffer(marked, { mimeType: 'audio/wav' });
    expect(common.title).toBe('Old Song');
    expect(common.comment?.[0]?.text).toBe(
      `Made with AI (ACE-Step) on ${common.artist}. Provenance: ${new URL(apiUrl).origin}/api/track/${id}/provenance`,
    );
    expect(new TextDecoder().decode(marked)).toContain(DIGITAL_SOURCE_TYPE);
    expect(parseWav(marked).frames).toBe(parseWav(wav).frames);
    const stream = await files.storedBytes(after.streamAudioUrl as string);
    expect((await parseBuffer(stream, { mimeType: 'audio/ogg' })).common.comment?.[0]?.text).toBe(
      common.comment?.[0]?.text,
    );
    // The old, unmarked WAV is gone; the track plays its new stream.
    expect(await files.storedExists(audioUrl)).toBe(false);
    const shown = (await new Browser().get(`/api/track/${id}`)).body as {
      audioUrl: string;
      loudness: unknown;
    };
    const keyOf = (stored: string) => stored.slice(`s3://${files.tracksBucket}/`.length);
    expect(new URL(shown.audioUrl).pathname).toBe(`/${keyOf(after.streamAudioUrl as string)}`);
    expect(shown.loudness).toEqual(after.loudness);
    const played = await fetch(shown.audioUrl);
    expect(played.status).toBe(200);
    expect(new Uint8Array(await played.arrayBuffer())).toEqual(stream);

    // Again, as the runner runs the step: it finds nothing to do and says so.
    const printed: string[] = [];
    const second = await filesStep.run(cloudEnv, { dryRun: false, ...onlyThis }, (line) =>
      printed.push(line),
    );
    expect(second).toEqual({ failed: 0 });
    expect(printed).toEqual(['Completed tracks checked: 1\nAlready marked and measured: 1\nFiles made: 0']);
    expect(await generations.get(id)).toEqual(after);
    await generations.delete(id, track.userId);
    for (const url of [after.audioUrl, after.streamAudioUrl, after.peaksUrl])
      await files.remove(files.tracksBucket, keyOf(url as string));
  },
);
