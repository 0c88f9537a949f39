import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { trackLyricsQueryOptions } from './get-track-lyrics';

const now = () => Date.parse('2026-11-29T12:00:00.000Z');

/** The refetch interval the options give for a query in this state. */
function intervalFor(
  createdAt: string,
  state: { data?: unknown; error?: unknown; errorUpdateCount?: number },
) {
  const options = trackLyricsQueryOptions('abc', createdAt, now);
  const interval = options.refetchInterval as (query: { state: typeof state }) => number | false;
  return interval({ state: { errorUpdateCount: 0, ...state } });
}

describe('asking again for lyrics in time', () => {
  const notYet = new ApiError(404, '{"message":"This track has no timed lyrics"}', 'Not Found');

  it('asks again every 5 s while a new track has none, for two minutes', () => {
    expect(intervalFor('2026-11-29T11:58:00.000Z', { error: notYet })).toBe(5000);
    expect(intervalFor('2026-11-29T11:58:00.000Z', { error: notYet, errorUpdateCount: 24 })).toBe(false);
  });

  it('stops once they are there, and never asks again for an older track', () => {
    expect(intervalFor('2026-11-29T11:58:00.000Z', { data: { source: 'aligned', lines: [] } })).toBe(false);
    expect(intervalFor('2026-11-29T11:00:00.000Z', { error: notYet })).toBe(false);
    expect(intervalFor('2026-11-29T11:58:00.000Z', { error: new ApiError(500, '', 'Error') })).toBe(false);
  });
});
