import { generationMessages } from '@tunesmith/shared/generation-values';
import type { TimedLyrics } from '@tunesmith/shared/lyrics';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aGeneration, aPlan } from '../../testing/fixtures';
import { fakeClock } from '../../testing/in-memory-accounts';
import type { StemsRecord } from '../stems/stems';
import { toV1Track, v1StatusOf } from './v1-track';

const timed: TimedLyrics = {
  source: 'aligned',
  lines: [{ text: 'la la', start: 1.5, end: 3, words: [{ text: 'la', start: 1.5, end: 2 }] }],
};

function deps(lyrics: Record<string, TimedLyrics> = {}) {
  return {
    playLink: async (stored: string | null) => (stored ? `https://cdn.test/${stored.slice(5)}?play` : null),
    downloadLink: async (stored: string, filename: string) =>
      `https://cdn.test/${stored.slice(5)}?as=${filename}`,
    lyrics: { get: async (id: string) => lyrics[id] },
    siteOrigin: 'https://tunesmith.test',
    clock: fakeClock('2026-11-29T12:00:00.000Z'),
  };
}

const free = { planStatus: 'free' as const, planEndDate: null };
const paying = { planStatus: 'active' as const, planEndDate: null };

const stems = (status: StemsRecord['status'], requestedAt: string, set: '4' | '6' = '4'): StemsRecord => ({
  set,
  status,
  requestedAt,
  attempt: 1,
  requestId: null,
  model: 'htdemucs',
  files:
    status === 'ready'
      ? [
          {
            name: 'vocals',
            wavUrl: 's3://tracks/tracks/t.vocals.wav',
            streamUrl: 's3://tracks/tracks/t.vocals.opus',
            peaksUrl: null,
            sha256: 'abc',
            loudness: null,
          },
        ]
      : [],
  updatedAt: requestedAt,
});

describe('toV1Track', () => {
  const done = aGeneration({
    id: 't',
    title: 'Night Drive',
    audioUrl: 's3://tracks/tracks/t.wav',
    streamAudioUrl: 's3://tracks/tracks/t.opus',
    peaksUrl: 's3://tracks/tracks/t.peaks.json',
    lyrics: 'la la',
    analysis: { bpm: 120, key: 'A minor', confidence: 0.9 },
  });

  it('links a completed track’s stream, peaks and provenance, its analysis and timed lyrics', async () => {
    const track = await toV1Track(deps({ t: timed }), free, aPlan(), done);

    expect(track).toMatchObject({
      id: 't',
      status: 'completed',
      audio: {
        stream: 'https://cdn.test/tracks/tracks/t.opus?play',
        peaks: 'https://cdn.test/tracks/tracks/t.peaks.json?play',
        wav: null,
      },
      provenanceUrl: 'https://tunesmith.test/api/track/t/provenance',
      analysis: { bpm: 120, key: 'A minor' },
      timedLyrics: [{ text: 'la la', start: 1.5, end: 3 }],
      stems: null,
      error: null,
    });
  });

  it('offers the WAV only on a paid plan and once its download is prepared', async () => {
    const paid = await toV1Track(deps(), paying, aBasicPlan(), done);
    const preparing = await toV1Track(deps(), paying, aBasicPlan(), { ...done, downloadPending: true });

    expect(paid.audio?.wav).toBe('https://cdn.test/tracks/tracks/t.wav?as=Night Drive.wav');
    expect(preparing.audio?.wav).toBeNull();
  });

  it('has no audio before completion, calls generating processing, and says why a failed one failed', async () => {
    const pending = await toV1Track(deps({ t: timed }), free, aPlan(), { ...done, status: 'generating' });
    const failed = await toV1Track(deps(), free, aPlan(), { ...done, status: 'failed' });

    expect(pending).toMatchObject({ status: 'processing', audio: null, timedLyrics: null, error: null });
    expect(failed).toMatchObject({ status: 'failed', audio: null, error: generationMessages.statusFailed });
    expect(v1StatusOf('pending')).toBe('pending');
  });

  it('lists the stems of the ready set asked for last, even while a later set separates', async () => {
    const track = await toV1Track(deps(), free, aPlan(), {
      ...done,
      stems: {
        '4': stems('ready', '2026-11-01T00:00:00.000Z'),
        '6': stems('processing', '2026-11-02T00:00:00.000Z', '6'),
      },
    });
    const none = await toV1Track(deps(), free, aPlan(), {
      ...done,
      stems: { '4': stems('processing', '2026-11-01T00:00:00.000Z') },
    });

    expect(track.stems).toEqual([
      { name: 'vocals', url: 'https://cdn.test/tracks/tracks/t.vocals.opus?play' },
    ]);
    expect(none.stems).toBeNull();
  });
});
