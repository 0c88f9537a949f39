import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from './constants';
import { formatBytes, UPLOAD_MAX_LABEL, uploadMessages } from './uploads';

/** The number a formatted size shows, in megabytes (every size near the limit is in MB). */
const shownMegabytes = (bytes: number) => {
  const [value, unit] = formatBytes(bytes).split(' ');
  expect(unit).toBe('MB');
  return Number(value);
};

describe('file sizes', () => {
  it('writes the 50485760-byte limit as 50 MB, as the spec labels it, in the copy and the refusal', () => {
    expect(UPLOAD_MAX_BYTES).toBe(50_485_760);
    expect(formatBytes(50_485_760)).toBe('50 MB');
    expect(UPLOAD_MAX_LABEL).toBe('50 MB');
    expect(uploadMessages.tooLarge).toBe('Audio files must be 50 MB or smaller.');
  });

  it('uses decimal units, so a file of 50.4 MB (48 MiB) is never called 48 MB', () => {
    expect(formatBytes(50_400_000)).toBe('50 MB');
    expect(formatBytes(48 * 1024 * 1024)).toBe('50 MB');
    expect(formatBytes(47_999_999)).toBe('48 MB');
  });

  it('never shows a file over the limit as smaller than the limit, nor one under it as larger', () => {
    const limit = shownMegabytes(UPLOAD_MAX_BYTES);
    for (let bytes = UPLOAD_MAX_BYTES - 2_000_000; bytes <= UPLOAD_MAX_BYTES + 2_000_000; bytes += 9_973) {
      const shown = shownMegabytes(bytes);
      if (bytes <= UPLOAD_MAX_BYTES) expect([bytes, shown <= limit]).toEqual([bytes, true]);
      else expect([bytes, shown >= limit]).toEqual([bytes, true]);
    }
    expect(shownMegabytes(UPLOAD_MAX_BYTES - 1)).toBeLessThanOrEqual(limit);
    expect(shownMegabytes(UPLOAD_MAX_BYTES + 1)).toBeGreaterThanOrEqual(limit);
  });

  it('gives one decimal below 10 and whole numbers from 10, moving up a unit at 1000', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1_000)).toBe('1 kB');
    expect(formatBytes(1_250)).toBe('1.3 kB');
    expect(formatBytes(999_499)).toBe('999 kB');
    expect(formatBytes(999_600)).toBe('1 MB');
    expect(formatBytes(3_240_000)).toBe('3.2 MB');
    expect(formatBytes(12_600_000)).toBe('13 MB');
    expect(formatBytes(2_500_000_000)).toBe('2.5 GB');
  });

  it('refuses what is not a size', () => {
    expect(() => formatBytes(-1)).toThrow(RangeError);
    expect(() => formatBytes(Number.NaN)).toThrow(RangeError);
  });
});
