import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect } from 'vitest';
import { lyricsStep, runLyricsBackfill } from '../../scripts/backfill/lyrics';
import { dynamoGenerationStore } from '../src/adapters/dynamo/generation-store';
import { keys } from '../src/data/keys';
import type { LyricsBackfillOutcome } from '../src/domain/lyrics/lyrics-backfill';
import type { Generation } from '../src/domain/tracks/track';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { Browser, cloudEnv } from './support/http';
import { paidGeneration } from './support/run';
import { storage } from './support/storage';

// `npm run backfill -- lyrics` against the emulators: a sung track completed before the workflow timed
// lyrics gets them from the embedded provider's fal-ai/whisper and the alignment, exactly as the
// workflow's TimeLyrics gives a new track the same WAV's; a second run changes nothing.

const store = direct();
const files = storage();
const generations = dynamoGenerationStore(store.documents, store.tableName);
afterAll(() => {
  files.close();
  store.close();
});

const LYRICS =
  '[verse]\nHolding on to the summer light\nRunning through the city night\n[chorus]\nWe keep on chasing';

async function until<T>(what: string, probe: () => Promise<T | undefined>, withinMs = 120_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not happen within ${withinMs / 1000} s`);
}

describe('npm run backfill -- lyrics', () => {
  paidGeneration.it(
    'times the lyrics of a sung track from before timing, as the workflow times a new one, once',
    { timeout: 240_000 },
    async () => {
      // A sung track made now: the workflow times its lyrics.
      const owner = await signedInUser();
      const res = await owner.browser.post('/api/generate-text-to-music', {
        tags: 'pop, female vocals',
        lyrics: LYRICS,
        duration: 15,
      });
      expect(res.status).toBe(201);
      const madeId = String(res.body.generationId);
      const timedNow = await until('timed lyrics', async () => {
        const answer = await owner.browser.get(`/api/track/${madeId}/lyrics`);
        return answer.status === 200 ? answer.body : undefined;
      });
      const made = (await generations.get(madeId)) as Generation;

      // The same song as a track from before timing: its own copy of the WAV, no timed lyrics.
      // Older than anything else in the table with lyrics, so the runs below take this track alone.
      const id = `old-${randomUUID()}`;
      const createdAt = '2000-06-01T00:00:00.000Z';
      const onlyThis = { createdBefore: '2000-06-01T00:00:01.000Z' };
      await generations.create({
        ...made,
        id,
        title: 'Summer Light, from before',
        audioUrl: await files.putTrackAudio(owner.id, id, await files.storedBytes(made.audioUrl as string)),
        createdAt,
        updatedAt: createdAt,
      });
      const lyricsItem = async () =>
        (
          await store.documents.send(
            new GetCommand({ TableName: store.tableName, Key: keys.trackLyrics(id) }),
          )
        ).Item;
      try {
        expect((await owner.browser.get(`/api/track/${id}/lyrics`)).status).toBe(404);

        // A dry run finds it among every completed track with lyrics, and transcribes and writes nothing.
        const seen: LyricsBackfillOutcome[] = [];
        const dry = await runLyricsBackfill(cloudEnv, { dryRun: true, onTrack: (o) => seen.push(o) });
        expect(seen).toContainEqual({ id, result: 'would-make' });
        expect(dry.made).toBe(0);
        expect(await lyricsItem()).toBeUndefined();

        const first = await runLyricsBackfill(cloudEnv, onlyThis);
        expect(first).toEqual({ checked: 1, alreadyHad: 0, made: 1, wouldMake: 0, skipped: 0, failed: 0 });
        // The same words heard in the same WAV, aligned the same way: what the workflow kept for the new track.
        const backfilled = await new Browser().get(`/api/track/${id}/lyrics`);
        expect(backfilled.status).toBe(200);
        expect(backfilled.body).toEqual(timedNow);

        // Again, as the runner runs the step: it finds nothing to do and says so.
        const printed: string[] = [];
        const second = await lyricsStep.run(cloudEnv, { dryRun: false, ...onlyThis }, (line) =>
          printed.push(line),
        );
        expect(second).toEqual({ failed: 0 });
        expect(printed).toEqual([
          'Completed tracks with lyrics checked: 1\nAlready had timed lyrics: 1\nLyrics timed: 0',
        ]);
      } finally {
        // Deleting the track takes its backfilled lyrics and its WAV.
        expect((await owner.browser.call('DELETE', `/api/generation/${id}`)).status).toBeLessThan(300);
      }
      expect(await lyricsItem()).toBeUndefined();
    },
  );
});
