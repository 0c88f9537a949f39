import { describe, expect, it } from 'vitest';
import {
  kWeighting,
  loudnessRecord,
  measureLoudness,
  streamGainDb,
  TRUE_PEAK_FLOOR_DBTP,
  withGain,
} from './loudness';
import type { PcmSource } from './pcm';

// EBU Tech 3341 (loudness metering, "EBU mode") test signals, generated here
// rather than read from files: sines at given levels (dBFS of the sine's
// peak), in the same channels, in sequence.

interface Segment {
  seconds: number;
  /** The sine's peak level in dBFS; null for digital silence. */
  dbfs: number | null;
}

/** A sine of `frequency` Hz through `segments`, the same in `channels` channels, computed as it is read. */
function sineSequence(
  segments: Segment[],
  options: { frequency?: number; sampleRate?: number; channels?: number; phase?: number } = {},
): PcmSource {
  const sampleRate = options.sampleRate ?? 48_000;
  const frequency = options.frequency ?? 1000;
  const phase = options.phase ?? 0;
  const bounds: { end: number; amplitude: number }[] = [];
  let end = 0;
  for (const s of segments) {
    end += Math.round(s.seconds * sampleRate);
    bounds.push({ end, amplitude: s.dbfs === null ? 0 : 10 ** (s.dbfs / 20) });
  }
  return {
    sampleRate,
    channels: options.channels ?? 2,
    frames: end,
    read(_channel, start, into) {
      let segment = 0;
      for (let i = 0; i < into.length; i++) {
        const n = start + i;
        if (n < 0 || n >= end) {
          into[i] = 0;
          continue;
        }
        while ((bounds[segment] as { end: number }).end <= n) segment++;
        into[i] =
          (bounds[segment] as { amplitude: number }).amplitude *
          Math.sin((2 * Math.PI * frequency * n) / sampleRate + phase);
      }
    },
  };
}

/** The largest absolute sample of a source. */
function samplePeak(source: PcmSource): number {
  const buffer = new Float32Array(source.frames);
  let peak = 0;
  for (let c = 0; c < source.channels; c++) {
    source.read(c, 0, buffer);
    for (const x of buffer) peak = Math.max(peak, Math.abs(x));
  }
  return peak;
}

describe('integrated loudness (EBU Tech 3341)', () => {
  it.each([
    [-20, 48_000],
    [-26, 48_000],
    [-23, 48_000],
    [-33, 48_000],
    [-20, 44_100],
    [-26, 44_100],
  ])(
    'cases 1 and 2: a stereo 1 kHz sine at %d dBFS reads that many LUFS (±0.1) at %d Hz',
    (level, sampleRate) => {
      const { integratedLufs } = measureLoudness(
        sineSequence([{ seconds: 20, dbfs: level }], { sampleRate }),
      );
      expect(integratedLufs).not.toBeNull();
      expect(Math.abs((integratedLufs as number) - level)).toBeLessThanOrEqual(0.1);
    },
  );

  it('case 3: -36, -23, -36 dBFS (10, 60, 10 s) reads -23.0 ±0.1 (the relative gate drops the quiet parts)', () => {
    const { integratedLufs } = measureLoudness(
      sineSequence([
        { seconds: 10, dbfs: -36 },
        { seconds: 60, dbfs: -23 },
        { seconds: 10, dbfs: -36 },
      ]),
    );
    expect(Math.abs((integratedLufs as number) + 23)).toBeLessThanOrEqual(0.1);
  });

  it('case 4: -72, -36, -23, -36, -72 dBFS (10, 10, 60, 10, 10 s) reads -23.0 ±0.1 (both gates)', () => {
    const { integratedLufs } = measureLoudness(
      sineSequence([
        { seconds: 10, dbfs: -72 },
        { seconds: 10, dbfs: -36 },
        { seconds: 60, dbfs: -23 },
        { seconds: 10, dbfs: -36 },
        { seconds: 10, dbfs: -72 },
      ]),
    );
    expect(Math.abs((integratedLufs as number) + 23)).toBeLessThanOrEqual(0.1);
  });

  it('case 5: -26, -20, -26 dBFS (20, 20.1, 20 s) reads -23.0 ±0.1 (the gate keeps all three)', () => {
    const { integratedLufs } = measureLoudness(
      sineSequence([
        { seconds: 20, dbfs: -26 },
        { seconds: 20.1, dbfs: -20 },
        { seconds: 20, dbfs: -26 },
      ]),
    );
    expect(Math.abs((integratedLufs as number) + 23)).toBeLessThanOrEqual(0.1);
  });

  it('an ungated mean would read the quiet parts too: without the gates case 3 would be quieter', () => {
    // The same programme measured in its loud part alone and whole: the gated whole equals the loud part.
    const whole = measureLoudness(
      sineSequence([
        { seconds: 10, dbfs: -36 },
        { seconds: 60, dbfs: -23 },
        { seconds: 10, dbfs: -36 },
      ]),
    );
    const ungatedEnergy = (10 * 10 ** (-36 / 10) + 60 * 10 ** (-23 / 10) + 10 * 10 ** (-36 / 10)) / 80;
    const ungated = 10 * Math.log10(ungatedEnergy);
    expect(ungated).toBeLessThan(-23.5);
    expect(whole.integratedLufs as number).toBeGreaterThan(ungated + 0.4);
  });

  it('weighs surround channels 1.41 and leaves out the LFE (5.1 in WAV order)', () => {
    const front = measureLoudness(sineSequence([{ seconds: 5, dbfs: -23 }], { channels: 1 }));
    const silentExcept = (channel: number): PcmSource => {
      const tone = sineSequence([{ seconds: 5, dbfs: -23 }], { channels: 6 });
      return {
        ...tone,
        read: (c, start, into) => (c === channel ? tone.read(c, start, into) : into.fill(0)),
      };
    };
    const left = measureLoudness(silentExcept(0)).integratedLufs as number;
    const lfe = measureLoudness(silentExcept(3)).integratedLufs;
    const surround = measureLoudness(silentExcept(4)).integratedLufs as number;
    expect(left).toBeCloseTo(front.integratedLufs as number, 6);
    expect(lfe).toBeNull();
    expect(surround - left).toBeCloseTo(10 * Math.log10(1.41), 2);
  });

  it('K-weighting at 48 kHz has the coefficients the standard lists', () => {
    const [shelf, highPass] = kWeighting(48_000);
    expect(shelf.b0).toBeCloseTo(1.53512485958697, 8);
    expect(shelf.b1).toBeCloseTo(-2.69169618940638, 8);
    expect(shelf.b2).toBeCloseTo(1.19839281085285, 8);
    expect(shelf.a1).toBeCloseTo(-1.69065929318241, 8);
    expect(shelf.a2).toBeCloseTo(0.73248077421585, 8);
    expect(highPass.a1).toBeCloseTo(-1.99004745483398, 8);
    expect(highPass.a2).toBeCloseTo(0.99007225036621, 8);
  });

  it('silence, and anything below the absolute gate, has no integrated loudness', () => {
    const silence = measureLoudness(sineSequence([{ seconds: 3, dbfs: null }]));
    expect(silence).toEqual({ integratedLufs: null, truePeakDbtp: TRUE_PEAK_FLOOR_DBTP });
    expect(measureLoudness(sineSequence([{ seconds: 3, dbfs: -80 }])).integratedLufs).toBeNull();
    // Shorter than one 400 ms block.
    expect(measureLoudness(sineSequence([{ seconds: 0.3, dbfs: -20 }])).integratedLufs).toBeNull();
  });
});

describe('true peak (BS.1770-4 Annex 2, in the style of Tech 3341 cases 15 to 19)', () => {
  it.each([0, 45, 60, 67.5, 88.2])(
    'a sine at fs/4 whose peaks fall between samples (phase %d°) reads its true level: -6 dBTP +0.2/-0.4',
    (degrees) => {
      const source = sineSequence([{ seconds: 2, dbfs: -6 }], {
        frequency: 12_000,
        sampleRate: 48_000,
        phase: (degrees * Math.PI) / 180,
      });
      const { truePeakDbtp } = measureLoudness(source);
      const sampleDb = 20 * Math.log10(samplePeak(source));
      expect(truePeakDbtp).toBeGreaterThanOrEqual(-6.4);
      expect(truePeakDbtp).toBeLessThanOrEqual(-5.8);
      expect(truePeakDbtp).toBeGreaterThanOrEqual(sampleDb - 0.01);
    },
  );

  it('a full-scale sine at fs/4 with its samples at 45° reads 0 dBTP though no sample is above -3 dBFS', () => {
    const source = sineSequence([{ seconds: 1, dbfs: 0 }], {
      frequency: 11_025,
      sampleRate: 44_100,
      phase: Math.PI / 4,
    });
    expect(20 * Math.log10(samplePeak(source))).toBeCloseTo(-3.01, 1);
    const { truePeakDbtp } = measureLoudness(source);
    expect(truePeakDbtp).toBeGreaterThanOrEqual(-0.4);
    expect(truePeakDbtp).toBeLessThanOrEqual(0.2);
  });

  it('a low tone reads its sample peak', () => {
    const { truePeakDbtp } = measureLoudness(sineSequence([{ seconds: 1, dbfs: -12 }], { frequency: 100 }));
    expect(truePeakDbtp).toBeCloseTo(-12, 1);
  });
});

describe('the stream gain', () => {
  it('brings a track to -14 LUFS: a quiet one up, a loud one down', () => {
    expect(streamGainDb({ integratedLufs: -20, truePeakDbtp: -10 })).toBe(6);
    expect(streamGainDb({ integratedLufs: -8.5, truePeakDbtp: 0.3 })).toBe(-5.5);
  });

  it('never lifts the true peak above -1 dBTP', () => {
    // -20 LUFS wants +6 dB, but a -4 dBTP peak allows only +3.
    expect(streamGainDb({ integratedLufs: -20, truePeakDbtp: -4 })).toBe(3);
    // Loud enough already, yet its peak is over -1: turned down to the peak rule, not the target.
    expect(streamGainDb({ integratedLufs: -14.5, truePeakDbtp: 0.5 })).toBe(-1.5);
  });

  it('silence gets 0 dB, and a silent-but-for-a-click track is still capped by its peak', () => {
    expect(streamGainDb({ integratedLufs: null, truePeakDbtp: TRUE_PEAK_FLOOR_DBTP })).toBe(0);
    expect(streamGainDb({ integratedLufs: null, truePeakDbtp: 0 })).toBe(-1);
  });

  it('is rounded down to 0.01 dB, so the gain applied never passes the limits', () => {
    expect(streamGainDb({ integratedLufs: -17.2345, truePeakDbtp: -9 })).toBe(3.23);
    expect(streamGainDb({ integratedLufs: -14.001, truePeakDbtp: -20 })).toBe(0);
    expect(loudnessRecord({ integratedLufs: -17.2345, truePeakDbtp: -4.2367 })).toEqual({
      integratedLufs: -17.23,
      truePeakDbtp: -4.24,
      streamGainDb: 3.23,
    });
  });

  it('applied by gain alone, a loud track measures -14 LUFS and at most -1 dBTP afterwards', () => {
    const loud = sineSequence([{ seconds: 10, dbfs: -6 }], { frequency: 440 });
    const before = measureLoudness(loud);
    const gain = streamGainDb(before);
    expect(gain).toBeLessThan(0);
    const after = measureLoudness(withGain(loud, gain));
    expect(Math.abs((after.integratedLufs as number) + 14)).toBeLessThanOrEqual(0.05);
    expect(after.truePeakDbtp).toBeLessThanOrEqual(-1);

    // A quiet track with a high peak stops at the peak: -1 dBTP, short of -14 LUFS.
    const peaky = sineSequence(
      [
        { seconds: 10, dbfs: -30 },
        { seconds: 0.05, dbfs: -3 },
      ],
      { frequency: 440 },
    );
    const lifted = measureLoudness(withGain(peaky, streamGainDb(measureLoudness(peaky))));
    expect(lifted.truePeakDbtp).toBeLessThanOrEqual(-1);
    expect(lifted.truePeakDbtp).toBeGreaterThan(-1.05);
    expect(lifted.integratedLufs as number).toBeLessThan(-14);
  });

  it('multiplies every sample by the gain and changes nothing else', () => {
    const source = sineSequence([{ seconds: 0.1, dbfs: -10 }], { frequency: 440 });
    const gained = withGain(source, -6);
    expect([gained.sampleRate, gained.channels, gained.frames]).toEqual([
      source.sampleRate,
      source.channels,
      source.frames,
    ]);
    const a = new Float32Array(100);
    const b = new Float32Array(100);
    source.read(1, 50, a);
    gained.read(1, 50, b);
    const factor = 10 ** (-6 / 20);
    for (let i = 0; i < a.length; i++) expect(b[i]).toBe(Math.fround((a[i] as number) * factor));
    expect(withGain(source, 0)).toBe(source);
  });
});
