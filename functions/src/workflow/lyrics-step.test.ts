import type { TimedLyrics } from '@tunesmith/shared/lyrics';
import { describe, expect, it } from 'vitest';
import { heardWords } from '../adapters/fal/fal-provider';
import { MusicProviderError } from '../domain/generations/music-provider';
import type { GenerationDeps } from '../domain/generations/ports';
import type { LyricsStore } from '../domain/lyrics/lyrics-timing';
import type { Generation } from '../domain/tracks/track';
import { aGeneration } from '../testing/fixtures';
import { inMemoryGenerationStore } from '../testing/in-memory-generations';
import { executionEndedStep, timeLyricsStep } from './steps';
import { fakeMusicProvider } from './testing';

function memoryLyrics(tracks: Map<string, Generation>): LyricsStore & { all: Map<string, TimedLyrics> } {
  const all = new Map<string, TimedLyrics>();
  return {
    all,
    async get(id) {
      return all.get(id);
    },
    async put(id, lyrics) {
      if (!tracks.has(id)) return false;
      all.set(id, lyrics);
      return true;
    },
  };
}

function setup(track: Partial<Generation>) {
  const generation = aGeneration({
    id: 'gen-1',
    status: 'completed',
    lyrics: '[verse]\nNeon over water\n[chorus]\nHold on',
    audioUrl: 's3://tracks/tracks/gen-1.wav',
    duration: 20,
    ...track,
  });
  const generations = inMemoryGenerationStore([generation]);
  const provider = fakeMusicProvider(() => ({ status: 'completed' }));
  const lyrics = memoryLyrics(generations.all);
  const links: string[] = [];
  const transcribed: string[] = [];
  const transcribe = provider.transcribe.bind(provider);
  provider.transcribe = async (request) => {
    transcribed.push(request.audioUrl);
    return transcribe(request);
  };
  const deps = {
    generation: { generations } as unknown as GenerationDeps,
    provider,
    lyrics,
    trackAudioUrl: async (stored: string) => {
      links.push(stored);
      return `https://signed.test/${stored.slice('s3://'.length)}?expires=900`;
    },
  };
  return { deps, provider, lyrics, links, transcribed, generations };
}

describe('TimeLyrics', () => {
  it("aligns the owner's lyrics to what the transcription heard, from a signed link, once", async () => {
    const env = setup({});
    env.provider.transcribed.push([
      { text: 'neon', start: 2, end: 2.4 },
      { text: 'ova', start: 2.5, end: 2.9 },
      { text: 'water', start: 3, end: 3.6 },
      { text: 'yeah', start: 4, end: 4.2 },
      { text: 'hold', start: 6, end: 6.4 },
      { text: 'on', start: 6.5, end: 7 },
    ]);

    const out = await timeLyricsStep(env.deps, { generationId: 'gen-1' });

    expect(out).toMatchObject({ timed: true, lines: 2, words: 5 });
    expect(env.links).toEqual(['s3://tracks/tracks/gen-1.wav']);
    expect(env.transcribed).toEqual(['https://signed.test/tracks/tracks/gen-1.wav?expires=900']);
    const kept = env.lyrics.all.get('gen-1');
    expect(kept?.source).toBe('aligned');
    expect(kept?.lines.map((l) => [l.text, l.start])).toEqual([
      ['Neon over water', 2],
      ['Hold on', 6],
    ]);
    expect(kept?.lines[0]?.words.map((w) => w.text)).toEqual(['Neon', 'over', 'water']);

    // Run again (a retried step): nothing is transcribed twice.
    expect(await timeLyricsStep(env.deps, { generationId: 'gen-1' })).toMatchObject({
      timed: false,
      reason: 'already-timed',
    });
    expect(env.transcribed).toHaveLength(1);
  });

  it('leaves instrumental tracks and tracks without words alone', async () => {
    for (const track of [{ instrumental: true }, { lyrics: '' }, { lyrics: '[instrumental]' }]) {
      const env = setup(track);
      expect(await timeLyricsStep(env.deps, { generationId: 'gen-1' })).toMatchObject({
        timed: false,
        reason: 'no-lyrics',
      });
      expect(env.transcribed).toEqual([]);
    }
  });

  it('hands a failed transcription to the state machine to retry, keeping nothing', async () => {
    const env = setup({});
    env.provider.transcribe = async () => {
      throw new MusicProviderError('fal is down', 'unavailable', 503);
    };
    await expect(timeLyricsStep(env.deps, { generationId: 'gen-1' })).rejects.toMatchObject({
      name: 'Provider.Unavailable',
    });
    expect(env.lyrics.all.size).toBe(0);
  });

  it('keeps nothing for a track deleted while it was transcribed', async () => {
    const env = setup({});
    env.provider.transcribe = async () => {
      env.generations.all.delete('gen-1');
      return [{ text: 'neon', start: 1, end: 1.2 }];
    };
    expect(await timeLyricsStep(env.deps, { generationId: 'gen-1' })).toMatchObject({
      timed: false,
      reason: 'deleted',
    });
    expect(env.lyrics.all.size).toBe(0);
  });

  it('an execution that ended without them counts a track whose lyrics were not timed, never failing it', async () => {
    const env = setup({});
    expect(await executionEndedStep(env.deps, { generationId: 'gen-1', status: 'FAILED' })).toEqual({
      lyricsNotTimed: true,
    });
    expect((await env.generations.get('gen-1'))?.status).toBe('completed');
    await env.lyrics.put('gen-1', { source: 'aligned', lines: [] });
    expect(await executionEndedStep(env.deps, { generationId: 'gen-1', status: 'FAILED' })).toBeUndefined();
  });
});

describe("fal-ai/whisper's answer", () => {
  it('becomes timed words, leaving out empty chunks and taking a missing end as the start', () => {
    expect(
      heardWords({
        text: 'hello world',
        chunks: [
          { timestamp: [0.5, 0.9], text: ' hello' },
          { timestamp: [1, null], text: ' world' },
          { timestamp: [1.2, 1.3], text: ' ' },
          { timestamp: [null, 2], text: 'lost' },
        ],
      }),
    ).toEqual([
      { text: 'hello', start: 0.5, end: 0.9 },
      { text: 'world', start: 1, end: 1 },
    ]);
    expect(() => heardWords({ text: '' })).toThrow(/no chunks/);
  });
});
