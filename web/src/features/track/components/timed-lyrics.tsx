import type { TimedLine } from '@tunesmith/shared/lyrics';
import { useEffect, useRef } from 'react';
import { type PlayerLink, usePlayerTime } from '@/components/tracks/player-link';
import { formatTime } from '@/lib/format';
import { useReducedMotion } from '@/lib/use-reduced-motion';
import { LYRIC_LINE, LYRIC_TIME, LYRICS_BOX, lyricRows } from './lyric-rows';

/** The line being sung at `seconds`: the last that has started, or -1 before the first. */
export function currentLineAt(lines: readonly Pick<TimedLine, 'start'>[], seconds: number): number {
  let current = -1;
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] as Pick<TimedLine, 'start'>).start <= seconds) current = i;
    else break;
  }
  return current;
}

/**
 * The rows of the lyrics as written, each sung row with its timed line: every
 * row is drawn where the text was, blank rows and section tags as text. Timed
 * lines are the written ones in order, without the tags and blank rows; if
 * they do not all match the text, the timed lines alone are the rows.
 */
export function timedRows(text: string, lines: readonly TimedLine[]): { text: string; line?: number }[] {
  const rows: { text: string; line?: number }[] = [];
  let next = 0;
  for (const row of lyricRows(text)) {
    if (next < lines.length && row === lines[next]?.text) rows.push({ text: row, line: next++ });
    else rows.push({ text: row });
  }
  return next === lines.length ? rows : lines.map((line, i) => ({ text: line.text, line: i }));
}

/**
 * The lyrics as the music plays: the line being sung is highlighted (and
 * marked `aria-current`) and kept in view; choosing a line (click, Enter or
 * Space) moves the player there. The lines are static text to a screen
 * reader: nothing is announced as the music moves on. The highlight changes
 * colours only, so no line wraps differently as it is sung.
 */
export function TimedLyricsList({
  text,
  lines,
  link,
  label,
}: {
  /** The lyrics as written: their rows are kept as the text showed them. */
  text: string;
  lines: TimedLine[];
  link: PlayerLink;
  /** The id of the heading that names the list. */
  label: string;
}) {
  const time = usePlayerTime(link);
  const current = currentLineAt(lines, time);
  const reduced = useReducedMotion();
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  useEffect(() => {
    if (current < 0) return;
    items.current[current]?.scrollIntoView?.({ block: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
  }, [current, reduced]);
  const rows = timedRows(text, lines);
  return (
    <ol aria-labelledby={label} className={LYRICS_BOX}>
      {rows.map((row, i) => {
        const line = row.line === undefined ? undefined : lines[row.line];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows repeat (choruses); their place is their identity
          <li key={i}>
            {line && row.line !== undefined ? (
              <button
                type="button"
                ref={(element) => {
                  items.current[row.line as number] = element;
                }}
                aria-current={row.line === current ? 'true' : undefined}
                onClick={() => link.seek(line.start)}
                className={`${LYRIC_LINE} rounded-sm transition-colors focus-visible:outline-2 focus-visible:outline-violet-300 motion-reduce:transition-none ${
                  row.line === current ? 'bg-fuchsia-500/15 text-white' : 'text-zinc-300 hover:bg-white/5'
                }`}
              >
                <span className={LYRIC_TIME}>{formatTime(line.start)}</span>
                <span>{line.text}</span>
              </button>
            ) : (
              <p className={`${LYRIC_LINE} text-zinc-200`}>{row.text || '\u00a0'}</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

export default TimedLyricsList;
