import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatTime,
  trackDurationText,
  trackLyricsText,
  trackTagsText,
  trackTypeName,
} from './track-text';

describe("a track's values as its page writes them", () => {
  it('writes durations in whole seconds, and m:ss on the player', () => {
    expect(trackDurationText(61.6)).toBe('62 seconds');
    expect(trackDurationText(0)).toBe('0 seconds');
    expect(trackDurationText(null)).toBe('—');
    expect(formatTime(125.9)).toBe('2:05');
    expect(formatTime(-1)).toBe('0:00');
    expect(formatTime(Number.NaN)).toBe('0:00');
  });

  it('writes a dash for no tags, nothing for blank lyrics, and the generation type as the screens do', () => {
    expect(trackTagsText('')).toBe('—');
    expect(trackTagsText('rock')).toBe('rock');
    expect(trackLyricsText('  \n ')).toBeUndefined();
    expect(trackLyricsText(' la la ')).toBe('la la');
    expect(trackTypeName('text-to-music')).toBe('Text to Music');
    expect(trackTypeName('audio-to-music')).toBe('Audio to Music');
    expect(trackTypeName('stem-split')).toBe('stem split');
  });
});

describe('formatDate', () => {
  it("writes a date in the reader's time zone on the page, in UTC in a document written on the server", () => {
    const iso = '2026-03-15T03:30:00.000Z';
    const local = new Date(iso);
    expect(formatDate(iso)).toBe(
      local.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    );
    expect(formatDate(iso, 'utc')).toBe('Mar 15, 2026');
    expect(formatDate('2026-12-31T23:59:59.000Z', 'utc')).toBe('Dec 31, 2026');
    expect(formatDate('not a date', 'utc')).toBe('');
  });
});
