import { describe, expect, it } from 'vitest';
import { decodeSource } from './edit';
import {
  bandSplitSteps,
  OWN_SONG_RESIDUAL_DB,
  residualDb,
  STEM_NAMES_4,
  STEM_NAMES_6,
  type StemName,
  separateSteps,
  sumStems,
} from './separate';
import { encodeWav, metaFor, planFor, renderSteps, runSteps } from './synth';

const LYRICS = '[verse]\nwalking down the road tonight\n[chorus]\nsing it loud and hold on tight';

/** A song as the provider writes it: 16-bit WAV with its render parameters. */
function song(tags: string, seconds = 12, seed = 7): Uint8Array {
  const plan = planFor({ tags, lyrics: LYRICS, duration: seconds, seed });
  return encodeWav(runSteps(renderSteps(plan)), undefined, metaFor(plan, tags));
}

/** Each stem as the provider sends it (a 16-bit WAV of its own), decoded again. */
async function asDelivered(stems: Partial<Record<StemName, [Float32Array, Float32Array]>>) {
  const out: Array<[Float32Array, Float32Array]> = [];
  for (const stem of Object.values(stems)) out.push((await decodeSource(encodeWav(stem))).channels);
  return out;
}

const energy = (channels: readonly Float32Array[]) =>
  channels.reduce((sum, c) => sum + c.reduce((s, v) => s + v * v, 0), 0);

describe('the embedded separation', () => {
  it('takes its own song apart into its true voices, whose 16-bit stems sum back to the mix within -60 dB', async () => {
    const source = await decodeSource(song('pop, female vocals'));
    const { stems, method } = runSteps(separateSteps(source, STEM_NAMES_4));
    expect(method).toBe('render');
    expect(Object.keys(stems).sort()).toEqual([...STEM_NAMES_4].sort());
    const delivered = await asDelivered(stems);
    const frames = source.channels[0].length;
    expect(residualDb(sumStems(delivered, frames), source.channels)).toBeLessThanOrEqual(
      OWN_SONG_RESIDUAL_DB,
    );
    // Each voice is there on its own: the singer, the kit, the bass line.
    for (const name of ['vocals', 'drums', 'bass'] as const)
      expect(energy(stems[name] as Float32Array[])).toBeGreaterThan(energy(source.channels) * 0.001);
  });

  it('the vocals stem is the singer alone: an instrumental song has a silent one', async () => {
    const plan = planFor({ tags: 'pop', lyrics: '[instrumental]', duration: 8, seed: 3 });
    const wav = encodeWav(runSteps(renderSteps(plan)), undefined, metaFor(plan, 'pop'));
    const { stems, method } = runSteps(separateSteps(await decodeSource(wav), STEM_NAMES_4));
    expect(method).toBe('render');
    expect(energy(stems.vocals as Float32Array[])).toBe(0);
  });

  it('six stems: the plucked lead is guitar, the bell lead piano, and all six still sum to the mix', async () => {
    for (const [tags, voice] of [
      ['hip hop', 'guitar'],
      ['ad jingle', 'piano'],
    ] as const) {
      const source = await decodeSource(song(tags, 16, 11));
      const { stems, method } = runSteps(separateSteps(source, STEM_NAMES_6));
      expect(method).toBe('render');
      expect(energy(stems[voice] as Float32Array[])).toBeGreaterThan(0);
      const frames = source.channels[0].length;
      expect(residualDb(sumStems(await asDelivered(stems), frames), source.channels)).toBeLessThanOrEqual(
        OWN_SONG_RESIDUAL_DB,
      );
    }
  });

  it('audio it did not make (no render parameters) gets the approximate band split, which still sums to it', async () => {
    const plan = planFor({ tags: 'rock', lyrics: LYRICS, duration: 8, seed: 5 });
    const upload = encodeWav(runSteps(renderSteps(plan)));
    const source = await decodeSource(upload);
    const { stems, method } = runSteps(separateSteps(source, STEM_NAMES_4));
    expect(method).toBe('bands');
    const frames = source.channels[0].length;
    expect(residualDb(sumStems(await asDelivered(stems), frames), source.channels)).toBeLessThanOrEqual(
      OWN_SONG_RESIDUAL_DB,
    );
  });

  it('a file whose render parameters do not describe its samples (restyled, edited) is not taken for its own song', async () => {
    const plan = planFor({ tags: 'pop', lyrics: LYRICS, duration: 8, seed: 9 });
    const quieter = runSteps(renderSteps(plan)).map((c) => c.map((v) => v * 0.5));
    const source = await decodeSource(encodeWav(quieter, undefined, metaFor(plan, 'pop')));
    expect(runSteps(separateSteps(source, STEM_NAMES_4)).method).toBe('bands');
  });

  it('the band split hands back silent guitar and piano: it cannot tell them apart', () => {
    const x = new Float32Array(4800).map((_, i) => Math.sin(i / 7));
    const stems = runSteps(bandSplitSteps([x, x.slice()], STEM_NAMES_6));
    expect(energy(stems.guitar as Float32Array[])).toBe(0);
    expect(energy(stems.piano as Float32Array[])).toBe(0);
    expect(
      residualDb(sumStems(Object.values(stems) as Array<[Float32Array, Float32Array]>, 4800), [x, x]),
    ).toBeLessThan(-100);
  });
});
