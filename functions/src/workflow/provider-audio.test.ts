import { Mp3Encoder } from '@breezystack/lamejs';
import { describe, expect, it } from 'vitest';
import { encodeFlac } from '../../../local/src/music/flac';
import { audioWorkerPool, workerAudio } from '../adapters/audio/audio-workers';
import { oggOpusStreamEncoder } from '../adapters/audio/opus-encoder';
import { tone } from '../domain/audio/testing';
import { parseWav } from '../domain/audio/wav';
import type { GenerationDeps } from '../domain/generations/ports';
import type { Generation } from '../domain/tracks/track';
import { fakeClock } from '../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../testing/in-memory-generations';
import { sniffAudio, wavMaster } from './provider-audio';
import { finishStep, prepareDownloadStep, submitStep, trackAudioKey, type WorkflowDeps } from './steps';
import { fakeAudioStore, fakeMusicProvider, recordingLog, silentWav, testSite } from './testing';

/** Channels of samples that are exact 16-bit values, so a lossless round trip can be checked sample for sample. */
function sixteenBit(channels: Float32Array[]): Float32Array[] {
  // (+ 0: a negative zero reads back as zero.)
  return channels.map((c) => c.map((v) => Math.round(v * 32767) / 32768 + 0));
}

function mp3Of(channels: Float32Array[], sampleRate: number): Uint8Array {
  const encoder = new Mp3Encoder(channels.length, sampleRate, 192);
  const ints = channels.map((c) => Int16Array.from(c, (v) => Math.round(v * 32767)));
  const parts: Uint8Array[] = [];
  for (let at = 0; at < (ints[0]?.length ?? 0); at += 1152) {
    const [left, right] = ints.map((c) => c.subarray(at, at + 1152));
    parts.push(encoder.encodeBuffer(left as Int16Array, right));
  }
  parts.push(encoder.flush());
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

const samplesOf = (wav: Uint8Array, channel: number) => {
  const pcm = parseWav(wav);
  const out = new Float32Array(pcm.frames);
  pcm.read(channel, 0, out);
  return out;
};

/** The frequency with the most energy among candidates: a tone survives MP3 coding, its exact samples do not. */
function loudest(samples: Float32Array, sampleRate: number, candidates: number[]): number {
  const energy = (f: number) => {
    let re = 0;
    let im = 0;
    for (let i = 0; i < samples.length; i++) {
      const p = (2 * Math.PI * f * i) / sampleRate;
      re += (samples[i] as number) * Math.cos(p);
      im += (samples[i] as number) * Math.sin(p);
    }
    return re * re + im * im;
  };
  return candidates.reduce((best, f) => (energy(f) > energy(best) ? f : best));
}

describe('the provider’s audio, told apart by content', () => {
  const stereo = sixteenBit([tone(440, 1, 44100, 0.4), tone(660, 1, 44100, 0.3)]);

  it('knows WAV, FLAC and MP3 (with or without an ID3 tag) and nothing else', () => {
    expect(sniffAudio(silentWav(0.1))).toBe('wav');
    expect(sniffAudio(encodeFlac(stereo, 44100))).toBe('flac');
    const mp3 = mp3Of(stereo, 44100);
    expect(sniffAudio(mp3)).toBe('mp3');
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 3, 1, 2, 3]);
    expect(sniffAudio(Uint8Array.from([...id3, ...mp3]))).toBe('mp3');
    expect(sniffAudio(new TextEncoder().encode('<html>not audio</html>'))).toBeUndefined();
    expect(sniffAudio(new TextEncoder().encode('OggS....'))).toBeUndefined();
  });

  it('keeps a WAV as it came', async () => {
    const wav = silentWav(0.2);
    expect((await wavMaster(wav))?.wav).toBe(wav);
  });

  it('decodes FLAC to a WAV with the very same samples, stereo and mono', async () => {
    for (const channels of [stereo, [stereo[0] as Float32Array]]) {
      const kept = await wavMaster(encodeFlac(channels, 44100));
      expect(kept?.from).toBe('flac');
      const pcm = parseWav(kept?.wav as Uint8Array);
      expect({ rate: pcm.sampleRate, channels: pcm.channels, frames: pcm.frames }).toEqual({
        rate: 44100,
        channels: channels.length,
        frames: 44100,
      });
      for (let c = 0; c < channels.length; c++)
        expect(samplesOf(kept?.wav as Uint8Array, c)).toEqual(channels[c]);
    }
  });

  it('decodes MP3 to a 16-bit WAV that sounds as the source did', async () => {
    const kept = await wavMaster(mp3Of(stereo, 44100));
    expect(kept?.from).toBe('mp3');
    const pcm = parseWav(kept?.wav as Uint8Array);
    expect(pcm.sampleRate).toBe(44100);
    expect(pcm.channels).toBe(2);
    // The encoder's delay and padding lengthen it a little.
    expect(pcm.frames).toBeGreaterThanOrEqual(44100);
    expect(pcm.frames).toBeLessThan(44100 + 4 * 1152);
    expect(loudest(samplesOf(kept?.wav as Uint8Array, 0), 44100, [220, 440, 660, 880])).toBe(440);
    expect(loudest(samplesOf(kept?.wav as Uint8Array, 1), 44100, [220, 440, 660, 880])).toBe(660);
  });

  it('gives up on a file that only looks like FLAC', async () => {
    const broken = encodeFlac(stereo, 44100).slice(0, 30);
    expect(await wavMaster(broken)).toBeUndefined();
  });
});

describe('Finish with a model that answers FLAC or MP3', () => {
  const clock = fakeClock();
  const now = clock.now().toISOString();
  const generation: Generation = {
    id: 'gen-1',
    userId: 'user-1',
    type: 'text-to-music',
    model: 'minimax-music-2',
    title: 'Song',
    tags: 'pop',
    lyrics: '[verse]\nhello there',
    duration: null,
    status: 'pending',
    visibility: 'private',
    showInGallery: false,
    inputAudioUrl: null,
    audioUrl: null,
    seed: null,
    falRequestId: null,
    createdAt: now,
    updatedAt: now,
  };

  async function finishWith(file: Uint8Array, onWorkers?: ReturnType<typeof workerAudio>) {
    const generations = inMemoryGenerationStore([generation]);
    const gdeps: GenerationDeps = { generations, quota: inMemoryQuota(), clock, newId: () => 'x' };
    const audio = fakeAudioStore(new Map([['https://fal.example/song', file]]));
    const deps: WorkflowDeps = {
      generation: gdeps,
      provider: fakeMusicProvider(() => ({
        status: 'completed',
        result: { audioUrl: 'https://fal.example/song', seed: 0 },
      })),
      audio,
      streamEncoder: onWorkers?.streamEncoder ?? oggOpusStreamEncoder,
      ...(onWorkers ? { audioWork: onWorkers.work } : {}),
      site: testSite,
      log: recordingLog(),
      webhookUrl: () => 'https://api.example/webhooks/fal',
    };
    const job = await submitStep(deps, { generationId: 'gen-1' });
    const out = await finishStep(deps, { generationId: 'gen-1', job });
    await prepareDownloadStep(deps, { generationId: 'gen-1' });
    return { out, audio, track: generations.all.get('gen-1') };
  }

  it('a mono FLAC (MiniMax’s default channel count) plays, streams, draws and downloads as a mono WAV', async () => {
    const mono = sixteenBit([tone(330, 3, 44100, 0.5)]);
    const { out, audio, track } = await finishWith(encodeFlac(mono, 44100));
    expect(out).toMatchObject({ duration: 3, downloadPending: true });
    expect(out.streamAudioUrl).toMatch(/\.opus$/);
    expect(out.peaksUrl).toMatch(/peaks\.json$/);
    expect(track).toMatchObject({ status: 'completed', downloadPending: false });
    expect(track?.loudness?.integratedLufs).toBeGreaterThan(-20);
    const download = audio.copies.get(trackAudioKey(generation)) as Uint8Array;
    const pcm = parseWav(download);
    expect({ channels: pcm.channels, rate: pcm.sampleRate, frames: pcm.frames }).toEqual({
      channels: 1,
      rate: 44100,
      frames: 3 * 44100,
    });
    expect(samplesOf(download, 0)).toEqual(mono[0]);
  });

  it('a mono master is measured and encoded on the worker threads (as in the Lambda) as in this thread', async () => {
    const pool = audioWorkerPool(2);
    try {
      const mono = sixteenBit([tone(330, 3, 44100, 0.5)]);
      const here = await finishWith(encodeFlac(mono, 44100));
      const there = await finishWith(encodeFlac(mono, 44100), workerAudio(pool));
      expect(there.track?.loudness).toEqual(here.track?.loudness);
      expect(there.out.streamAudioUrl).toMatch(/\.opus$/);
      expect(there.audio.copies.get('tracks/gen-1.peaks.json')).toEqual(
        here.audio.copies.get('tracks/gen-1.peaks.json'),
      );
    } finally {
      await pool.close();
    }
  });

  it('an MP3 becomes a WAV master and download', async () => {
    const { out, audio } = await finishWith(
      mp3Of([tone(440, 2, 44100, 0.4), tone(440, 2, 44100, 0.4)], 44100),
    );
    expect(out.downloadPending).toBe(true);
    expect(out.streamAudioUrl).toMatch(/\.opus$/);
    const pcm = parseWav(audio.copies.get(trackAudioKey(generation)) as Uint8Array);
    expect(pcm.channels).toBe(2);
    expect(out.duration).toBeGreaterThanOrEqual(2);
  });
});
