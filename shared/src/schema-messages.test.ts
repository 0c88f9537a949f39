import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import './schema-messages';

const messageOf = (schema: z.ZodMiniType, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

describe('schema messages for rules that name none of their own', () => {
  it('say string lengths in words', () => {
    expect(messageOf(z.string().check(z.maxLength(100)), 'x'.repeat(101))).toBe(
      'Use at most 100 characters.',
    );
    expect(messageOf(z.string().check(z.minLength(8)), 'short')).toBe('Use at least 8 characters.');
    expect(messageOf(z.string().check(z.minLength(1)), '')).toBe('Fill this in.');
    expect(messageOf(z.string().check(z.length(1)), 'ab')).toBe('Use exactly 1 character.');
  });

  it('say list sizes and number bounds in words', () => {
    expect(messageOf(z.array(z.string()).check(z.maxLength(2)), ['a', 'b', 'c'])).toBe(
      'Give at most 2 items.',
    );
    expect(messageOf(z.array(z.string()).check(z.minLength(1)), [])).toBe('Give at least one item.');
    expect(messageOf(z.number().check(z.lte(10)), 11)).toBe('Use 10 or less.');
    expect(messageOf(z.number().check(z.gt(0)), 0)).toBe('Use more than 0.');
  });

  it("keep zod's English for other rules, and a rule's own message before either", () => {
    expect(messageOf(z.string(), 5)).toBe('Invalid input: expected string, received number');
    expect(messageOf(z.string().check(z.maxLength(3, 'Keep it short.')), 'long')).toBe('Keep it short.');
  });
});
