import type { TimedLine } from '@tunesmith/shared/lyrics';
import { useEffect, useRef } from 'react';
import { type PlayerLink, usePlayerTime } from '@/components/tracks/player-link';
import { formatTime } from '@/lib/format';
import { useReducedMotion } from '@/lib/use-reduced-motion';

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
 * The lyrics as the music plays: the line being sung is highlighted (and
 * marked `aria-current`) and kept in view; choosing a line (click, Enter or
 * Space) moves the player there. The lines are static text to a screen
 * reader: nothing is announced as the music moves on.
 */
export function TimedLyricsList({
  lines,
  link,
  label,
}: {
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
  return (
    <ol aria-labelledby={label} className="mt-2 grid max-h-80 gap-0.5 overflow-y-auto pr-1 text-sm">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines repeat (choruses); their place is their identity
        <li key={i}>
          <button
            type="button"
            ref={(element) => {
              items.current[i] = element;
            }}
            aria-current={i === current ? 'true' : undefined}
            onClick={() => link.seek(line.start)}
            className={`flex w-full gap-3 rounded-md px-2 py-1 text-left transition-colors focus-visible:outline-2 focus-visible:outline-violet-300 motion-reduce:transition-none ${
              i === current ? 'bg-fuchsia-500/15 font-semibold text-white' : 'text-zinc-300 hover:bg-white/5'
            }`}
          >
            <span className="w-10 shrink-0 text-xs leading-5 text-zinc-400 tabular-nums">
              {formatTime(line.start)}
            </span>
            <span>{line.text}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

export default TimedLyricsList;
