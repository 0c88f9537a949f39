import { describe, expect, it } from 'vitest';
import { formatExpiryInput } from './stripe-pages';

describe('the expiry field as it is typed', () => {
  it('puts the separator in after the month', () => {
    const typed = ['1', '12', '12 / 3', '12 / 34'];
    expect(typed.map((value) => formatExpiryInput(value, false))).toEqual([
      '1',
      '12 / ',
      '12 / 3',
      '12 / 34',
    ]);
    expect(formatExpiryInput('1234', false)).toBe('12 / 34');
    expect(formatExpiryInput('12/34', false)).toBe('12 / 34');
  });

  it('reads a first digit above 1 as a month, and keeps at most four digits', () => {
    expect(formatExpiryInput('4', false)).toBe('04 / ');
    expect(formatExpiryInput('0', false)).toBe('0');
    expect(formatExpiryInput('123456', false)).toBe('12 / 34');
  });

  it('does not put the separator back while deleting', () => {
    expect(formatExpiryInput('12 /', true)).toBe('12');
    expect(formatExpiryInput('12 / ', true)).toBe('12');
    expect(formatExpiryInput('1', true)).toBe('1');
  });
});
