import { describe, expect, it } from 'vitest';
import { AudioEditError, type EditResult, inpaint, outpaint, REPAINT_FADE_SECONDS, sectionOf } from './edit';
import { decodeWav, restylePlan } from './restyle';
import {
  barSamples,
  encodeWav,
  metaFor,
  planFor,
  type RenderMeta,
  readWavMeta,
  renderSteps,
  runSteps,
  SAMPLE_RATE,
  scoreFor,
  type TrackInput,
} from './synth';

const SR = SAMPLE_RATE;

/** A WAV as this provider writes it: samples plus the render parameters. */
function song(input: TrackInput): { wav: Uint8Array; meta: RenderMeta } {
  const plan = planFor(input);
  const meta = metaFor(plan, input.tags);
  return { wav: encodeWav(runSteps(renderSteps(plan)), SR, meta), meta };
}

/** The interleaved 16-bit samples of one of our WAVs (data chunk at 44). */
function pcm(wav: Uint8Array): Int16Array {
  const size = new DataView(wav.buffer, wav.byteOffset).getUint32(40, true);
  return new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + 44 + size));
}

const encoded = (r: EditResult) => pcm(encodeWav(r.channels, SR, r.meta));

const same = (a: Int16Array, b: Int16Array) =>
  a.length === b.length &&
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** Largest sample-to-sample step of either channel over frames [from, to). */
function maxJump(x: Int16Array, from = 0, to = x.length / 2): number {
  let max = 0;
  for (let i = Math.max(1, from); i < to; i++)
    for (let c = 0; c < 2; c++)
      max = Math.max(max, Math.abs((x[2 * i + c] as number) - (x[2 * (i - 1) + c] as number)));
  return max;
}

/** RMS of the difference of two interleaved signals over frames [from, to), as a fraction of full scale. */
function rmsDiff(a: Int16Array, b: Int16Array, from: number, to: number): number {
  let sum = 0;
  for (let i = 2 * from; i < 2 * to; i++) sum += (((a[i] as number) - (b[i] as number)) / 32767) ** 2;
  return Math.sqrt(sum / (2 * (to - from)));
}

const midi = (hz: number) => Math.round(69 + 12 * Math.log2(hz / 440));

/** Pitch classes of a key: tonic plus scale steps. */
const keyOf = (meta: RenderMeta) => new Set(meta.scale.map((s) => (meta.root + s) % 12));

/** Beat period (s) from the autocorrelation of the onset strength in 10 ms blocks. */
function beatPeriod(x: Int16Array, from: number, to: number): number {
  const block = 441;
  const blocks = Math.floor((to - from) / block);
  const flux = new Float64Array(blocks);
  let prev = 0;
  let last = 0;
  for (let b = 0; b < blocks; b++) {
    let e = 0;
    for (let i = from + b * block; i < from + (b + 1) * block; i++) {
      const v = (x[2 * i] as number) / 32767;
      e += (v - last) ** 2; // first difference: the drums' bright onsets
      last = v;
    }
    flux[b] = Math.max(0, e - prev);
    prev = e;
  }
  let best = 0;
  let bestLag = 0;
  for (let lag = 30; lag <= 100; lag++) {
    let acc = 0;
    for (let b = 0; b + lag < blocks; b++) acc += (flux[b] as number) * (flux[b + lag] as number);
    acc /= blocks - lag;
    if (acc > best) {
      best = acc;
      bestLag = lag;
    }
  }
  return (bestLag * block) / SR;
}

describe('extend (audio-outpaint)', () => {
  const source = song({ tags: 'electronic', lyrics: '', duration: 10, seed: 21 });
  const srcPcm = pcm(source.wav);
  const n = srcPcm.length / 2;

  it('after: the whole song, the source first and unchanged, a seam without a jump, same tempo and key', async () => {
    const out = await outpaint(source.wav, { tags: 'electronic', lyrics: '', seed: 5, before: 0, after: 8 });
    const x = encoded(out);
    expect(x.length / 2).toBe(n + 8 * SR);
    expect(same(x.subarray(0, 2 * n), srcPcm)).toBe(true);
    // The seam: no step larger than the source's own, and nothing audible at the join itself.
    const inSource = maxJump(srcPcm);
    expect(maxJump(x, n - 44, n + 44)).toBeLessThanOrEqual(inSource);
    expect(maxJump(x, n, n + 1)).toBeLessThan(0.01 * 32767);
    // The continuation is music, not silence.
    expect(rmsDiff(x, new Int16Array(x.length), n + SR, n + 7 * SR)).toBeGreaterThan(0.05);
    // Same tempo, scale and tonic, on the source's bar grid.
    expect(out.context.basis).toBe('render');
    expect(out.meta).toMatchObject({
      bpm: source.meta.bpm,
      root: source.meta.root,
      scale: source.meta.scale,
    });
    const [{ plan, at }] = out.renders as [EditResult['renders'][number]];
    expect(at).toBe(n);
    expect(plan.gridStart).toBe(0);
    const step = barSamples(source.meta.bpm) / 16;
    const score = scoreFor(plan);
    const hits = score.hits.filter((h) => h.start >= n);
    expect(hits.length).toBeGreaterThan(20);
    for (const h of hits) {
      const off = h.start % step;
      expect(Math.min(off, step - off)).toBeLessThan(1.5);
    }
    const key = keyOf(source.meta);
    const notes = score.notes.filter((note) => note.start >= n);
    expect(notes.length).toBeGreaterThan(20);
    for (const note of notes) expect(key.has(midi(note.freq) % 12)).toBe(true);
    // And by ear: the beat period of the new part is the source's, a whole number of beats.
    const heard = beatPeriod(x, n + SR, n + 7 * SR);
    expect(Math.abs(heard - beatPeriod(srcPcm, SR, 9 * SR))).toBeLessThan(0.02);
    const beats = heard / (60 / source.meta.bpm);
    expect(Math.abs(beats - Math.round(beats))).toBeLessThan(0.05);
  });

  it('before: new bars first, then the source unchanged; the bar grid runs on into the source', async () => {
    const out = await outpaint(source.wav, {
      tags: 'electronic',
      lyrics: '',
      seed: 6,
      before: 5.5,
      after: 0,
    });
    const x = encoded(out);
    const before = 5.5 * SR;
    expect(x.length / 2).toBe(before + n);
    expect(same(x.subarray(2 * before), srcPcm)).toBe(true);
    expect(maxJump(x, before - 44, before + 44)).toBeLessThanOrEqual(maxJump(srcPcm));
    expect(maxJump(x, before, before + 1)).toBeLessThan(0.01 * 32767);
    expect(rmsDiff(x, new Int16Array(x.length), SR, 4 * SR)).toBeGreaterThan(0.05);
    // Every drum hit of the lead-in falls on a sixteenth of the source's grid.
    const [{ plan }] = out.renders as [EditResult['renders'][number]];
    const step = barSamples(source.meta.bpm) / 16;
    const hits = scoreFor(plan).hits.filter((h) => h.start >= 0 && h.start < before);
    expect(hits.length).toBeGreaterThan(10);
    for (const h of hits) {
      const off = (((h.start - before) % step) + step) % step;
      expect(Math.min(off, step - off)).toBeLessThan(1.5);
    }
    // The result knows where its bars are, so it can be extended again on the same grid.
    expect(out.meta.gridStart).toBeCloseTo(plan.gridStart ?? Number.NaN, 6);
    expect((before + source.meta.gridStart - out.meta.gridStart) % barSamples(source.meta.bpm)).toBeCloseTo(
      0,
      3,
    );
  });

  it('both ways at once, exact to the sample', async () => {
    const out = await outpaint(source.wav, { tags: 'pop', lyrics: '', seed: 1, before: 2.25, after: 3.5 });
    const x = encoded(out);
    expect(x.length / 2).toBe(2.25 * SR + n + 3.5 * SR);
    expect(same(x.subarray(2 * 2.25 * SR, 2 * (2.25 * SR + n)), srcPcm)).toBe(true);
  });

  it('audio it did not render: the key is estimated, the tempo comes from the tags, the seam is ramped', async () => {
    // A steady A3 (220 Hz) that stops mid-wave: its last sample is far from zero.
    const frames = 4 * SR + 37;
    const tone = new Float32Array(frames).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 220 * i) / SR));
    const wav = encodeWav([tone]);
    expect(readWavMeta(wav)).toBeUndefined();
    const out = await outpaint(wav, { tags: 'hip hop', lyrics: '', seed: 2, before: 0, after: 5 });
    expect(out.context.basis).toBe('estimate');
    expect(out.context.root % 12).toBe(9); // A
    expect(out.meta.bpm).toBe(out.context.style.bpm);
    const x = encoded(out);
    const src = pcm(wav);
    expect(x.length / 2).toBe(frames + 5 * SR);
    for (let i = 0; i < frames; i++) {
      if (x[2 * i] !== src[i] || x[2 * i + 1] !== src[i]) throw new Error(`frame ${i} changed`);
    }
    let toneJump = 0;
    for (let i = 1; i < frames; i++)
      toneJump = Math.max(toneJump, Math.abs((src[i] as number) - (src[i - 1] as number)));
    expect(Math.abs(src[frames - 1] as number)).toBeGreaterThan(1000);
    expect(maxJump(x, frames, frames + 1)).toBeLessThanOrEqual(toneJump);
  });

  it('is deterministic for the same input and seed', async () => {
    const input = { tags: 'electronic', lyrics: '', seed: 9, before: 0, after: 3 };
    const a = encoded(await outpaint(source.wav, input));
    const b = encoded(await outpaint(source.wav, input));
    const c = encoded(await outpaint(source.wav, { ...input, seed: 10 }));
    expect(same(a, b)).toBe(true);
    expect(same(a, c)).toBe(false);
  });

  it('refuses what is not audio', async () => {
    await expect(
      outpaint(new TextEncoder().encode('not audio at all'), {
        tags: 'pop',
        lyrics: '',
        seed: 1,
        before: 0,
        after: 5,
      }),
    ).rejects.toThrow(/Unsupported audio format/);
  });
});

describe('repaint (audio-inpaint)', () => {
  const source = song({ tags: 'pop, upbeat', lyrics: '', duration: 12, seed: 4 });
  const srcPcm = pcm(source.wav);
  const s = 4 * SR;
  const e = 8 * SR;
  const fade = Math.round(REPAINT_FADE_SECONDS * SR);
  const repaint = (variance: number, seed = 3) =>
    inpaint(source.wav, { tags: 'pop, upbeat', lyrics: '', seed, start: 4, end: 8, variance });

  it('replaces exactly the section: the rest is bit-exact, the section differs, the edges do not jump', async () => {
    const out = await repaint(0.5);
    const x = encoded(out);
    expect(x.length).toBe(srcPcm.length);
    expect(same(x.subarray(0, 2 * s), srcPcm.subarray(0, 2 * s))).toBe(true);
    expect(same(x.subarray(2 * e), srcPcm.subarray(2 * e))).toBe(true);
    const silence = new Int16Array(srcPcm.length);
    expect(rmsDiff(x, srcPcm, s + fade, e - fade)).toBeGreaterThan(0.3 * rmsDiff(srcPcm, silence, s, e));
    const inSource = maxJump(srcPcm);
    expect(maxJump(x, s - 4, s + fade + 4)).toBeLessThanOrEqual(inSource);
    expect(maxJump(x, e - fade - 4, e + 4)).toBeLessThanOrEqual(inSource);
    // The first and last samples of the section are still almost the source's.
    for (const i of [s, e - 1])
      for (let c = 0; c < 2; c++)
        expect(Math.abs((x[2 * i + c] as number) - (srcPcm[2 * i + c] as number))).toBeLessThan(0.02 * 32767);
    // New material in the source's tempo and key.
    expect(out.meta).toMatchObject({
      bpm: source.meta.bpm,
      root: source.meta.root,
      scale: source.meta.scale,
    });
    const [{ plan, at }] = out.renders as [EditResult['renders'][number]];
    expect(at).toBe(s);
    expect(plan.window).toEqual({ start: s, length: e - s });
    const key = keyOf(source.meta);
    for (const note of scoreFor(plan).notes) expect(key.has(midi(note.freq) % 12)).toBe(true);
  });

  it('differs more as variance grows, and not at all at 0', async () => {
    const d = async (v: number) => rmsDiff(encoded(await repaint(v)), srcPcm, s, e);
    const [d0, d2, d5, d9] = [await d(0), await d(0.2), await d(0.5), await d(0.9)];
    expect(d0).toBe(0);
    expect(d2).toBeGreaterThan(0.01);
    expect(d5).toBeGreaterThan(d2 * 1.5);
    expect(d9).toBeGreaterThan(d5 * 1.2);
  });

  it('takes times relative to the end, and refuses a section outside the audio', () => {
    const frames = 10 * SR;
    const base = { tags: 'pop', lyrics: '', seed: 1, variance: 0.5 };
    expect(sectionOf(frames, { ...base, start: 3, end: 1, startFrom: 'end', endFrom: 'end' })).toEqual({
      start: 7 * SR,
      end: 9 * SR,
    });
    expect(sectionOf(frames, { ...base, start: 2, end: 30 })).toEqual({ start: 2 * SR, end: frames });
    expect(() => sectionOf(frames, { ...base, start: 11, end: 12 })).toThrow(AudioEditError);
    expect(() => sectionOf(frames, { ...base, start: 5, end: 5 })).toThrow(/end_time/);
  });

  it('keeps the length exact for audio it did not render', async () => {
    const tone = new Float32Array(3 * SR + 11).map((_, i) => 0.4 * Math.sin((2 * Math.PI * 330 * i) / SR));
    const wav = encodeWav([tone, tone]);
    const out = await inpaint(wav, { tags: 'lo-fi', lyrics: '', seed: 1, start: 1, end: 2, variance: 1 });
    const x = encoded(out);
    const src = pcm(wav);
    expect(x.length).toBe(src.length);
    expect(same(x.subarray(0, 2 * SR), src.subarray(0, 2 * SR))).toBe(true);
    expect(same(x.subarray(4 * SR), src.subarray(4 * SR))).toBe(true);
    expect(rmsDiff(x, src, SR + fade, 2 * SR - fade)).toBeGreaterThan(0.05);
  });
});

describe('instrumental', () => {
  const vocals = (lyrics: string, tags = 'pop, female singer') =>
    scoreFor(planFor({ tags, lyrics, duration: 30, seed: 8 })).notes.filter((note) => note.wave === 'vocal')
      .length;

  it('[instrumental] and [inst] have no vocal line, even with a singer in the tags', () => {
    expect(vocals('[instrumental]')).toBe(0);
    expect(vocals('[inst]')).toBe(0);
    expect(vocals(' [Instrumental] \n')).toBe(0);
    expect(vocals('[instrumental]', 'rock, male vocals')).toBe(0);
    // Without the tag a singer hums, and lyrics are sung.
    expect(vocals('')).toBeGreaterThan(10);
    expect(vocals('[verse]\nwalking down the empty street tonight')).toBeGreaterThan(5);
  });

  it('an instrumental keeps its tune: the lead plays where the voice would', () => {
    const lead = (lyrics: string) =>
      scoreFor(planFor({ tags: 'pop, female singer', lyrics, duration: 30, seed: 8 })).notes.filter(
        (note) => note.wave === 'square' && note.decay === 0.4,
      ).length;
    expect(lead('[instrumental]')).toBeGreaterThan(5);
    expect(lead('')).toBe(0);
  });

  it('holds for restyle, extend and repaint too', async () => {
    const tone = new Float32Array(6 * SR).map((_, i) => 0.4 * Math.sin((2 * Math.PI * 220 * i) / SR));
    const restyled = restylePlan(tone, { tags: 'pop, female singer', lyrics: '[instrumental]', seed: 1 });
    expect(scoreFor(restyled).notes.some((note) => note.wave === 'vocal')).toBe(false);
    expect(
      scoreFor(restylePlan(tone, { tags: 'pop, female singer', lyrics: '', seed: 1 })).notes.some(
        (note) => note.wave === 'vocal',
      ),
    ).toBe(true);
    const { wav } = song({ tags: 'pop', lyrics: '', duration: 8, seed: 2 });
    const edits = [
      await outpaint(wav, {
        tags: 'pop, female singer',
        lyrics: '[instrumental]',
        seed: 3,
        before: 4,
        after: 8,
      }),
      await inpaint(wav, {
        tags: 'pop, female singer',
        lyrics: '[inst]',
        seed: 3,
        start: 1,
        end: 7,
        variance: 1,
      }),
    ];
    for (const edit of edits) {
      expect(edit.renders.length).toBeGreaterThan(0);
      for (const { plan } of edit.renders)
        expect(scoreFor(plan).notes.some((note) => note.wave === 'vocal')).toBe(false);
    }
    const sung = await outpaint(wav, {
      tags: 'pop, female singer',
      lyrics: '',
      seed: 3,
      before: 0,
      after: 8,
    });
    expect(sung.renders.some(({ plan }) => scoreFor(plan).notes.some((note) => note.wave === 'vocal'))).toBe(
      true,
    );
  });
});

describe('render parameters in the WAV', () => {
  it('round-trips through a chunk after the samples that decoders skip', () => {
    const plan = planFor({ tags: 'synthwave', lyrics: '[verse]\nneon', duration: 5, seed: 12 });
    const channels = runSteps(renderSteps(plan));
    const meta = metaFor(plan, 'synthwave');
    const plain = encodeWav(channels);
    const tagged = encodeWav(channels, SR, meta);
    expect(readWavMeta(tagged)).toEqual(meta);
    expect(readWavMeta(plain)).toBeUndefined();
    expect(same(pcm(tagged), pcm(plain))).toBe(true);
    expect(decodeWav(tagged).channels[1]).toEqual(decodeWav(plain).channels[1]);
    const riff = new DataView(tagged.buffer).getUint32(4, true);
    expect(riff).toBe(tagged.length - 8);
    // A chunk that does not parse is ignored, not trusted.
    const broken = tagged.slice();
    broken[broken.length - 3] = 0x7b;
    expect(readWavMeta(broken)).toBeUndefined();
  });
});
