/**
 * Timed lyrics as an `.lrc` file: a header (`[ti:…]`, `[ar:…]`, `[length:…]`)
 * and one `[mm:ss.xx]` line per lyric line, the time it starts, in
 * hundredths of a second.
 */
import type { TimedLyrics } from '@tunesmith/shared/lyrics';

/** `[mm:ss.xx]`: minutes (two or more digits), seconds and hundredths. */
export function lrcTime(seconds: number): string {
  const hundredths = Math.max(0, Math.round(seconds * 100));
  const m = Math.floor(hundredths / 6000);
  const s = Math.floor((hundredths % 6000) / 100);
  const h = hundredths % 100;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(h).padStart(2, '0')}`;
}

/** A header value on one line, without the brackets that would end its tag. */
const headerValue = (text: string) =>
  text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[[\]]/g, '')
    .trim();

export interface LrcHeader {
  title?: string | null;
  artist?: string | null;
  /** Seconds. */
  length?: number | null;
}

/** The lyrics as the text of an `.lrc` file (lines end with `\n`). */
export function toLrc(lyrics: TimedLyrics, header: LrcHeader = {}): string {
  const out: string[] = [];
  const title = header.title ? headerValue(header.title) : '';
  if (title) out.push(`[ti:${title}]`);
  const artist = header.artist ? headerValue(header.artist) : '';
  if (artist) out.push(`[ar:${artist}]`);
  if (header.length && header.length > 0) {
    const total = Math.round(header.length);
    out.push(
      `[length:${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}]`,
    );
  }
  for (const line of lyrics.lines) out.push(`[${lrcTime(line.start)}]${line.text.replace(/[\r\n]+/g, ' ')}`);
  return `${out.join('\n')}\n`;
}

/** A file name for a track's `.lrc`, beside its WAV (`{name}.lrc`). */
export const lrcFileName = (wavName: string) => wavName.replace(/\.wav$/i, '').concat('.lrc');
