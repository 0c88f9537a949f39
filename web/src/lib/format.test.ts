import { describe, expect, it } from 'vitest';
import { formatDate, formatPrice, formatTime, formatWeekdayDate } from './format';

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

describe('formatDate', () => {
  it("writes the month, day and year in the reader's time zone", () => {
    expect(formatDate('2024-03-15T12:00:00.000Z')).toBe('Mar 15, 2024');
    expect(formatDate('2025-09-01T12:00:00.000Z')).toBe('Sep 1, 2025');
    expect(formatDate('not a date')).toBe('');
  });

  it('says what Intl says for en-US, every month and weekday, in this time zone', () => {
    for (let month = 0; month < 12; month++) {
      for (const day of [1, 9, 28]) {
        const date = new Date(2023 + (month % 3), month, day, 0, 30);
        const iso = date.toISOString();
        expect(formatDate(iso)).toBe(
          date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
        );
        expect(formatWeekdayDate(iso)).toBe(
          date.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' }),
        );
      }
    }
  });
});
