import { describe, expect, it } from 'vitest';
import { formatResetDate, quotaResetsAt, quotaWindowStart, usedThisWindow } from './quota-window';

describe('quota window (weeks from Monday 00:00 UTC)', () => {
  it('starts on the Monday of the same week, whatever the weekday', () => {
    // 2026-11-16 is a Monday.
    expect(quotaWindowStart(new Date('2026-11-16T00:00:00.000Z'))).toBe('2026-11-16T00:00:00.000Z');
    expect(quotaWindowStart(new Date('2026-11-18T13:45:00.000Z'))).toBe('2026-11-16T00:00:00.000Z');
    expect(quotaWindowStart(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-16T00:00:00.000Z');
    expect(quotaWindowStart(new Date('2026-11-23T00:00:00.000Z'))).toBe('2026-11-23T00:00:00.000Z');
  });

  it('crosses month and year boundaries', () => {
    // 2027-01-01 is a Friday; its week began on Monday 2026-12-28.
    expect(quotaWindowStart(new Date('2027-01-01T08:00:00.000Z'))).toBe('2026-12-28T00:00:00.000Z');
  });

  it('resets a week after the window starts', () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    expect(quotaResetsAt(now).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(formatResetDate(quotaResetsAt(now))).toBe('Monday, November 23');
  });

  it('counts an older window as nothing used', () => {
    const now = new Date('2026-11-24T10:00:00.000Z');
    expect(usedThisWindow({ used: 5, windowStart: '2026-11-16T00:00:00.000Z' }, now)).toBe(0);
    expect(usedThisWindow({ used: 3, windowStart: '2026-11-23T00:00:00.000Z' }, now)).toBe(3);
    expect(usedThisWindow(undefined, now)).toBe(0);
  });
});
