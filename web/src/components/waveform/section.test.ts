import { describe, expect, it } from 'vitest';
import { clampSection, describeSection, formatSectionTime, isDrawableSection } from './section';

describe('clampSection', () => {
  it('keeps a section within the track, in tenths of a second', () => {
    expect(clampSection({ start: 12.34, end: 25.06 }, 200)).toEqual({ start: 12.3, end: 25.1 });
    expect(clampSection({ start: -3, end: 250 }, 200)).toEqual({ start: 0, end: 200 });
  });

  it('puts start before end', () => {
    expect(clampSection({ start: 30, end: 10 }, 200)).toEqual({ start: 10, end: 30 });
  });

  it('grows a section shorter than a second at its end, or at its start at the end of the track', () => {
    expect(clampSection({ start: 10, end: 10.2 }, 200)).toEqual({ start: 10, end: 11 });
    expect(clampSection({ start: 199.8, end: 200 }, 200)).toEqual({ start: 199, end: 200 });
  });

  it('never reports a section under a second, whatever the rounding of tenths', () => {
    for (let tenth = 0; tenth <= 2390; tenth++) {
      const { start, end } = clampSection({ start: tenth / 10, end: tenth / 10 + 0.3 }, 240);
      expect(end - start).toBeGreaterThanOrEqual(1);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(end).toBeLessThanOrEqual(240);
    }
  });

  it('never goes past a duration with hundredths', () => {
    expect(clampSection({ start: 50, end: 60 }, 59.97)).toEqual({ start: 50, end: 59.9 });
  });
});

describe('isDrawableSection', () => {
  it('accepts a section inside the track and refuses one mid-edit', () => {
    expect(isDrawableSection({ start: 0, end: 200 }, 200)).toBe(true);
    expect(isDrawableSection({ start: 20, end: 10 }, 200)).toBe(false);
    expect(isDrawableSection({ start: 10, end: 201 }, 200)).toBe(false);
    expect(isDrawableSection({ start: Number.NaN, end: 10 }, 200)).toBe(false);
  });
});

describe('describeSection', () => {
  it('says where the section lies and how long it is', () => {
    expect(describeSection({ start: 12.5, end: 65 })).toBe('Section: 0:12.5 to 1:05 (52.5 seconds)');
    expect(describeSection({ start: 0, end: 1 })).toBe('Section: 0:00 to 0:01 (1 second)');
  });

  it('writes minutes past the hour as minutes', () => {
    expect(formatSectionTime(239.9)).toBe('3:59.9');
  });
});
