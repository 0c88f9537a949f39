import { describe, expect, it } from 'vitest';
import { lrcFileName, lrcTime, toLrc } from './lrc';

describe('lrc', () => {
  it('writes [mm:ss.xx] in hundredths, past an hour in minutes', () => {
    expect(lrcTime(0)).toBe('00:00.00');
    expect(lrcTime(12.345)).toBe('00:12.35');
    expect(lrcTime(61.999)).toBe('01:02.00');
    expect(lrcTime(3725.5)).toBe('62:05.50');
    expect(lrcTime(-1)).toBe('00:00.00');
  });

  it('writes a header and one timed line per lyric line', () => {
    const text = toLrc(
      {
        source: 'aligned',
        lines: [
          { start: 1.5, end: 3, text: 'First line', words: [] },
          { start: 65.25, end: 67, text: 'Second line', words: [] },
        ],
      },
      { title: 'My [best]\nsong', artist: 'Tunesmith', length: 125.4 },
    );
    expect(text).toBe(
      '[ti:My best song]\n[ar:Tunesmith]\n[length:02:05]\n[00:01.50]First line\n[01:05.25]Second line\n',
    );
  });

  it('names the file after the WAV', () => {
    expect(lrcFileName('Night Drive.wav')).toBe('Night Drive.lrc');
  });
});
