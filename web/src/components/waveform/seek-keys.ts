/** Seconds an arrow key moves the playhead. */
export const SEEK_STEP_SECONDS = 5;
/** Seconds Page Up and Page Down move it. */
export const SEEK_PAGE_SECONDS = 30;

/**
 * Where a key on the waveform's slider moves the playhead, as a slider does:
 * arrows ±5 s, Page Up/Down ±30 s, Home the start, End the end; `null` for
 * any other key (the browser keeps it).
 */
export function seekTargetForKey(key: string, current: number, duration: number): number | null {
  const clamp = (value: number) => Math.min(Math.max(value, 0), Math.max(duration, 0));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(current + SEEK_STEP_SECONDS);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(current - SEEK_STEP_SECONDS);
    case 'PageUp':
      return clamp(current + SEEK_PAGE_SECONDS);
    case 'PageDown':
      return clamp(current - SEEK_PAGE_SECONDS);
    case 'Home':
      return 0;
    case 'End':
      return clamp(duration);
    default:
      return null;
  }
}
