/** The shortest section the studio repaints, in seconds. */
export const SECTION_MIN_SECONDS = 1;

export interface Section {
  start: number;
  end: number;
}

/**
 * A section as the picker reports it: whole tenths of a second, within
 * [0, duration], start before end and at least {@link SECTION_MIN_SECONDS}
 * long (a shorter one grows at its end, or at its start against the track's end).
 */
export function clampSection({ start, end }: Section, duration: number): Section {
  const last = Math.floor(duration * 10);
  const min = SECTION_MIN_SECONDS * 10;
  if (last < min) return { start: 0, end: last / 10 };
  const clamp = (tenths: number) => Math.min(Math.max(tenths, 0), last);
  let from = clamp(Math.round(Math.min(start, end) * 10));
  let to = clamp(Math.round(Math.max(start, end) * 10));
  if (to - from < min) {
    to = Math.min(from + min, last);
    from = to - min;
  }
  // Tenths divided back are not always exact: keep the length at least the minimum in seconds too.
  while (to / 10 - from / 10 < SECTION_MIN_SECONDS) {
    if (to < last) to += 1;
    else from -= 1;
  }
  return { start: from / 10, end: to / 10 };
}

/** Whether a section is one the waveform can show as it is (the dialog's typed values may be mid-edit). */
export function isDrawableSection({ start, end }: Section, duration: number): boolean {
  return Number.isFinite(start) && Number.isFinite(end) && start >= 0 && start < end && end <= duration;
}

/** Seconds as m:ss, with tenths when there are any (1:05, 0:12.5). */
export function formatSectionTime(seconds: number): string {
  const tenths = Math.round(Math.max(seconds, 0) * 10);
  const minutes = Math.floor(tenths / 600);
  const rest = tenths - minutes * 600;
  const whole = Math.floor(rest / 10);
  const fraction = rest % 10;
  return `${minutes}:${String(whole).padStart(2, '0')}${fraction ? `.${fraction}` : ''}`;
}

/** The section in words, for screen readers and as the picker's caption. */
export function describeSection({ start, end }: Section): string {
  const length = Math.round((end - start) * 10) / 10;
  return `Section: ${formatSectionTime(start)} to ${formatSectionTime(end)} (${length} ${length === 1 ? 'second' : 'seconds'})`;
}
