import { describe, expect, it } from 'vitest';
import { writeLyrics } from './lyrics';
import { decodeAudio, decodeWav, restyle } from './restyle';
import {
  askedTempoAndKey,
  encodeWav,
  metaFor,
  planFor,
  renderTrack,
  rootForSeed,
  SAMPLE_RATE,
  styleFor,
} from './synth';

const POPULAR = [
  'female singer',
  'male singer',
  'pop',
  'electronic',
  'hip hop',
  'ad jingle',
  'synthwave',
  'lo-fi',
  'energetic',
  'upbeat',
];

/** Zero-crossing rate (brightness proxy), onset rate per second and low-band energy share. */
function features(ch: Float32Array[]): number[] {
  const x = ch[0] as Float32Array;
  let zc = 0;
  for (let i = 1; i < x.length; i++) if ((x[i - 1] as number) < 0 !== (x[i] as number) < 0) zc++;
  const block = 441;
  let prev = 0;
  let onsets = 0;
  let low = 0;
  let all = 0;
  let lp = 0;
  for (let b = 0; b + block <= x.length; b += block) {
    let e = 0;
    for (let i = b; i < b + block; i++) {
      const v = x[i] as number;
      lp += 0.02 * (v - lp);
      e += v * v;
      low += lp * lp;
      all += v * v;
    }
    if (e > prev * 2 && e > 0.5) onsets++;
    prev = e;
  }
  const seconds = x.length / SAMPLE_RATE;
  return [zc / seconds / 1000, onsets / seconds, low / all];
}

describe('renderTrack', () => {
  it('is byte-identical for the same seed and differs for another', () => {
    const a = encodeWav(renderTrack({ tags: 'pop, upbeat', duration: 8, seed: 42 }));
    const b = encodeWav(renderTrack({ tags: 'pop, upbeat', duration: 8, seed: 42 }));
    const c = encodeWav(renderTrack({ tags: 'pop, upbeat', duration: 8, seed: 43 }));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(c))).toBe(false);
  });

  it('renders exactly the duration as 16-bit stereo 44.1 kHz WAV, faded out and not clipping', () => {
    for (const duration of [5, 7.5, 31]) {
      const channels = renderTrack({ tags: 'electronic', duration, seed: 1 });
      expect(channels).toHaveLength(2);
      expect(channels[0]?.length).toBe(Math.round(duration * 48000));
      const wav = encodeWav(channels);
      const view = new DataView(wav.buffer);
      expect(Buffer.from(wav.subarray(0, 4)).toString()).toBe('RIFF');
      expect(Buffer.from(wav.subarray(8, 12)).toString()).toBe('WAVE');
      expect(view.getUint16(22, true)).toBe(2);
      expect(view.getUint32(24, true)).toBe(48000);
      expect(view.getUint16(34, true)).toBe(16);
      expect(view.getUint32(40, true)).toBe(Math.round(duration * 48000) * 4);
      let peak = 0;
      for (const ch of channels) for (const v of ch) peak = Math.max(peak, Math.abs(v));
      expect(peak).toBeLessThanOrEqual(0.9);
      expect(peak).toBeGreaterThan(0.5);
      expect(Math.abs(channels[0]?.[channels[0].length - 1] ?? 1)).toBeLessThan(0.01);
    }
  });

  it('clamps duration to 5..240', () => {
    expect(renderTrack({ tags: 'pop', duration: 1, seed: 1 })[0]?.length).toBe(5 * 48000);
  });

  it('gives the ten popular tags different tempo/style and measurably different audio', () => {
    const styles = POPULAR.map((t) => styleFor(t, 7));
    const vectors = POPULAR.map((tags) => features(renderTrack({ tags, duration: 20, seed: 7 })));
    for (let i = 0; i < POPULAR.length; i++) {
      for (let j = i + 1; j < POPULAR.length; j++) {
        const a = vectors[i] as number[];
        const b = vectors[j] as number[];
        const rel = a.map(
          (v, k) => Math.abs(v - (b[k] as number)) / Math.max(1e-9, Math.abs(v) + Math.abs(b[k] as number)),
        );
        const distinctTempo = styles[i]?.bpm !== styles[j]?.bpm;
        expect(Math.max(...rel) > 0.03 || distinctTempo, `${POPULAR[i]} vs ${POPULAR[j]}`).toBe(true);
        expect(Math.max(...rel), `${POPULAR[i]} vs ${POPULAR[j]}: ${a} / ${b}`).toBeGreaterThan(0.02);
      }
    }
    expect(styleFor('energetic').bpm).toBeGreaterThan(styleFor('lo-fi').bpm + 30);
    expect(styleFor('electronic').groove).toBe('four');
    expect(styleFor('hip hop').groove).toBe('boombap');
    expect(styleFor('lo-fi').groove).toBe('half');
  });

  it('adds a lyric-driven lead whose sections change the render', () => {
    const base = { tags: 'pop', duration: 20, seed: 3 };
    const inst = encodeWav(renderTrack({ ...base, lyrics: '[inst]' }));
    const none = encodeWav(renderTrack({ ...base, lyrics: '' }));
    const verse = encodeWav(
      renderTrack({
        ...base,
        lyrics: '[verse]\nwalking down the empty street tonight\nlights are shining bright',
      }),
    );
    const chorus = encodeWav(
      renderTrack({
        ...base,
        lyrics: '[chorus]\nwalking down the empty street tonight\nlights are shining bright',
      }),
    );
    expect(Buffer.from(inst).equals(Buffer.from(none))).toBe(true);
    expect(Buffer.from(inst).equals(Buffer.from(verse))).toBe(false);
    expect(Buffer.from(verse).equals(Buffer.from(chorus))).toBe(false);
  });
});

function wavBytes(
  format: 1 | 3,
  bits: number,
  channels: number,
  rate: number,
  samples: (i: number, c: number) => number,
  frames: number,
): Uint8Array {
  const width = bits / 8;
  const buf = new ArrayBuffer(44 + frames * channels * width);
  const v = new DataView(buf);
  const s = (at: number, t: string) => {
    for (let k = 0; k < t.length; k++) v.setUint8(at + k, t.charCodeAt(k));
  };
  s(0, 'RIFF');
  v.setUint32(4, 36 + frames * channels * width, true);
  s(8, 'WAVE');
  s(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, format, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * channels * width, true);
  v.setUint16(32, channels * width, true);
  v.setUint16(34, bits, true);
  s(36, 'data');
  v.setUint32(40, frames * channels * width, true);
  let p = 44;
  for (let i = 0; i < frames; i++)
    for (let c = 0; c < channels; c++) {
      const x = samples(i, c);
      if (format === 3) v.setFloat32(p, x, true);
      else if (bits === 8) v.setUint8(p, Math.round(x * 127 + 128));
      else if (bits === 16) v.setInt16(p, Math.round(x * 32767), true);
      else if (bits === 24) {
        const n = Math.round(x * 8388607);
        v.setUint8(p, n & 0xff);
        v.setUint8(p + 1, (n >> 8) & 0xff);
        v.setUint8(p + 2, (n >> 16) & 0xff);
      } else v.setInt32(p, Math.round(x * 2147483647), true);
      p += width;
    }
  return new Uint8Array(buf);
}

/** A test tone with beats: 220 Hz bursts every half second. */
const song = (rate: number) => (i: number) => {
  const t = i / rate;
  return 0.6 * Math.sin(2 * Math.PI * 220 * t) * Math.exp(-((t % 0.5) * 6));
};

describe('restyle', () => {
  it('decodes every WAV flavour to the same samples', () => {
    for (const [format, bits] of [
      [1, 8],
      [1, 16],
      [1, 24],
      [1, 32],
      [3, 32],
    ] as const) {
      const decoded = decodeWav(wavBytes(format, bits, 2, 22050, song(22050), 2205));
      expect(decoded.sampleRate).toBe(22050);
      expect(decoded.channels).toHaveLength(2);
      expect(decoded.channels[0]?.[100]).toBeCloseTo(song(22050)(100), 1);
    }
  });

  it('keeps the length, resamples to 44.1 kHz and is deterministic', async () => {
    const input = wavBytes(1, 16, 1, 22050, song(22050), 22050 * 6);
    const a = await restyle({ audio: input, tags: 'synthwave', seed: 5 });
    const b = await restyle({ audio: input, tags: 'synthwave', seed: 5 });
    const c = await restyle({ audio: input, tags: 'hip hop', seed: 5 });
    expect(a).toHaveLength(2);
    expect(a[0]?.length).toBe(6 * 48000);
    expect(Buffer.from(encodeWav(a)).equals(Buffer.from(encodeWav(b)))).toBe(true);
    expect(Buffer.from(encodeWav(a)).equals(Buffer.from(encodeWav(c)))).toBe(false);
  });

  it('decodes MP3 through the wasm decoder (one silent MPEG-1 Layer III frame)', async () => {
    const frame = new Uint8Array(1000);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    const decoded = await decodeAudio(frame);
    expect(decoded.sampleRate).toBe(44100);
    expect(decoded.channels[0]?.length).toBeGreaterThanOrEqual(1152);
  });

  it('refuses what it cannot decode', async () => {
    await expect(
      restyle({ audio: new TextEncoder().encode('hello world'), tags: 'pop', seed: 1 }),
    ).rejects.toThrow(/Unsupported/);
  });
});

describe('writeLyrics', () => {
  it('has verse and chorus sections, uses the prompt and scales with duration', () => {
    const short = writeLyrics({ prompt: 'a song about summer rain in Tokyo', duration: 15, seed: 1 });
    const long = writeLyrics({ prompt: 'a song about summer rain in Tokyo', duration: 180, seed: 1 });
    for (const text of [short, long]) {
      expect(text).toMatch(/^\[verse\]/);
      expect(text).toContain('[chorus]');
      expect(text.toLowerCase()).toMatch(/summer|rain|tokyo/);
    }
    expect(long).toContain('[bridge]');
    const lines = (t: string) => t.split('\n').filter((l) => l && !l.startsWith('[')).length;
    expect(lines(long)).toBeGreaterThan(lines(short) * 3);
    expect(writeLyrics({ prompt: 'summer rain', duration: 60, seed: 2 })).toBe(
      writeLyrics({ prompt: 'summer rain', duration: 60, seed: 2 }),
    );
    expect(writeLyrics({ prompt: 'summer rain', duration: 60, seed: 2 })).not.toBe(
      writeLyrics({ prompt: 'summer rain', duration: 60, seed: 3 }),
    );
  });
});

describe('a tempo and key asked for', () => {
  it('are played exactly, from tags as the model reads them or given as inputs, the scale following the mode', () => {
    const fromTags = planFor({ tags: 'lo-fi, chill, 97 bpm, Eb major', duration: 10, seed: 3 });
    expect(fromTags.style.bpm).toBe(97);
    expect(fromTags.root).toBe(48 + 3);
    expect([...fromTags.style.scale]).toEqual([0, 2, 4, 5, 7, 9, 11]);

    const given = planFor({
      tags: 'synthwave, energetic, upbeat',
      duration: 10,
      seed: 3,
      bpm: 150,
      key: 'F# minor',
    });
    expect(given.style.bpm).toBe(150);
    expect(given.root).toBe(48 + 6);
    expect([...given.style.scale]).toEqual([0, 2, 3, 5, 7, 8, 10]);
    // The meta a WAV carries says the same, so extend and repaint keep them.
    expect(metaFor(given, 'synthwave')).toMatchObject({ bpm: 150, root: 54, scale: [0, 2, 3, 5, 7, 8, 10] });
  });

  it('leave the style and seed to choose when none is asked, and ignore a tempo out of range', () => {
    expect(askedTempoAndKey('pop, upbeat')).toEqual({});
    expect(askedTempoAndKey('pop, 300 bpm, H minor')).toEqual({});
    expect(askedTempoAndKey(' 120 BPM , a minor ')).toEqual({ bpm: 120, tonic: 9, mode: 'minor' });
    const plan = planFor({ tags: 'pop, 300 bpm', duration: 10, seed: 3 });
    expect(plan.style.bpm).toBe(styleFor('pop, 300 bpm', 3).bpm);
    expect(plan.root).toBe(rootForSeed(3));
    expect(() => planFor({ tags: 'pop', duration: 10, seed: 3, key: 'Q major' })).toThrow(RangeError);
  });
});
