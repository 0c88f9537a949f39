import { describe, expect, it } from 'vitest';
import { formatPrice, formatTime, formatWeekdayDate } from './format';

describe('formatTime', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [59.9, '0:59'],
    [60, '1:00'],
    [125, '2:05'],
    [240, '4:00'],
    [Number.NaN, '0:00'],
    [Number.POSITIVE_INFINITY, '0:00'],
    [-3, '0:00'],
  ])('formats %s seconds as %s', (seconds, text) => {
    expect(formatTime(seconds)).toBe(text);
  });
});

describe('formatPrice', () => {
  it('shows whole dollars without cents and others with two decimals', () => {
    expect(formatPrice(9)).toBe('$9');
    expect(formatPrice(190)).toBe('$190');
    expect(formatPrice(2.08)).toBe('$2.08');
    expect(formatPrice(4.5)).toBe('$4.50');
  });
});

describe('formatWeekdayDate', () => {
  it("names the weekday, month and day in the reader's time zone", () => {
    // Noon UTC is the same date in every time zone from -11 to +11.
    expect(formatWeekdayDate('2024-01-08T12:00:00.000Z')).toBe('Monday, January 8');
    expect(formatWeekdayDate('not a date')).toBe('');
  });
});
