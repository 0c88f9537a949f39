/**
 * zod's English messages, for the rules that name no message of their own (a
 * length limit, a wrong type): the schemas are written with zod/mini, which
 * leaves the messages out of what it loads (decision 042), so every schema
 * module imports this file. package.json lists it as a side effect, so no
 * bundler drops it. Sizes and bounds are said in words ("Use at most 100
 * characters."), not in zod's own terms ("Too big: expected string to have <=100
 * characters").
 */
import { en } from 'zod/locales';
import { config } from 'zod/mini';
import type { $ZodRawIssue } from 'zod/v4/core';

const english = en().localeError;

const plural = (n: number | bigint, one: string, many: string) => `${n} ${n === 1 || n === 1n ? one : many}`;

/** A size or bound rule in words; undefined for any other rule (zod's English says those). */
export function boundMessage(issue: $ZodRawIssue): string | undefined {
  if (issue.code !== 'too_big' && issue.code !== 'too_small') return undefined;
  const big = issue.code === 'too_big';
  const limit = big ? issue.maximum : issue.minimum;
  const exact = issue.exact === true;
  switch (issue.origin) {
    case 'string': {
      const size = plural(limit, 'character', 'characters');
      if (exact) return `Use exactly ${size}.`;
      if (!big && Number(limit) === 1) return 'Fill this in.';
      return big ? `Use at most ${size}.` : `Use at least ${size}.`;
    }
    case 'array':
    case 'set': {
      const size = plural(limit, 'item', 'items');
      if (exact) return `Give exactly ${size}.`;
      if (!big && Number(limit) === 1) return 'Give at least one item.';
      return big ? `Give at most ${size}.` : `Give at least ${size}.`;
    }
    case 'number':
    case 'int':
    case 'bigint': {
      const inclusive = issue.inclusive !== false;
      if (big) return inclusive ? `Use ${limit} or less.` : `Use less than ${limit}.`;
      return inclusive ? `Use ${limit} or more.` : `Use more than ${limit}.`;
    }
    default:
      return undefined;
  }
}

config({ localeError: (issue) => boundMessage(issue) ?? english(issue) });
