/**
 * A track's lyrics drawn the same whether or not they are timed: the same box,
 * lines of the same height and width (a line's time sits in a gutter that the
 * text keeps either way), so the page does not move when the timing arrives.
 * As text they are one paragraph, which a shared track's document fills in
 * with the lyrics as written (decision 026).
 */

/** The box the lyrics scroll in. */
export const LYRICS_BOX = 'mt-2 max-h-80 overflow-y-auto pr-1 text-sm';
/** One line, its text after the gutter. */
export const LYRIC_LINE = 'relative block w-full pl-12 text-left leading-5';
/** A line's time, in the gutter. */
export const LYRIC_TIME = 'absolute top-0 left-0 w-10 text-xs leading-5 text-zinc-400 tabular-nums';

/** The lines of lyrics as written, each trimmed, spaces within collapsed (as the text shows them). */
export const lyricRows = (text: string): string[] =>
  text.split(/\r?\n/).map((line) => line.trim().replace(/\s+/g, ' '));

/** The lyrics as text; the box can be scrolled from the keyboard. */
export function PlainLyrics({ text }: { text: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box of text is reached by keyboard to scroll it
    <div tabIndex={0} className={LYRICS_BOX}>
      <p className={`${LYRIC_LINE} whitespace-pre-line text-zinc-200`}>{text}</p>
    </div>
  );
}
