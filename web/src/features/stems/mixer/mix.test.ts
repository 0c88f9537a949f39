import { describe, expect, it } from 'vitest';
import { defaultStemControl, isAudible, type StemControl, stemGains } from './mix';

const stems = (...changes: Partial<StemControl>[]) =>
  changes.map((change) => ({ ...defaultStemControl, ...change }));

describe('stem gains', () => {
  it('plays every stem at full level when nothing is touched', () => {
    expect(stemGains(stems({}, {}, {}, {}))).toEqual([1, 1, 1, 1]);
  });

  it('silences a muted stem and keeps each volume', () => {
    expect(stemGains(stems({ muted: true }, { volume: 0.4 }, {}, { volume: 0 }))).toEqual([0, 0.4, 1, 0]);
  });

  it('plays only the soloed stems while any is soloed, each at its volume', () => {
    expect(stemGains(stems({ solo: true, volume: 0.8 }, {}, { solo: true }, {}))).toEqual([0.8, 0, 1, 0]);
  });

  it('keeps a muted stem silent even when soloed', () => {
    const controls = stems({ solo: true, muted: true }, {}, {});
    expect(stemGains(controls)).toEqual([0, 0, 0]);
    expect(isAudible(controls, 0)).toBe(false);
  });

  it('holds volumes within 0 to 1', () => {
    expect(stemGains(stems({ volume: 1.5 }, { volume: -1 }))).toEqual([1, 0]);
  });
});
