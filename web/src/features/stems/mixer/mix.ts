/** What the listener has set for one stem. */
export interface StemControl {
  muted: boolean;
  solo: boolean;
  /** 0 to 1. */
  volume: number;
}

export const defaultStemControl: StemControl = { muted: false, solo: false, volume: 1 };

/**
 * Each stem's gain, as a mixing desk has it: while any stem is soloed only the
 * soloed ones sound; a muted stem is silent, soloed or not; what sounds plays
 * at its volume.
 */
export function stemGains(controls: readonly StemControl[]): number[] {
  const soloing = controls.some((control) => control.solo);
  return controls.map((control) =>
    control.muted || (soloing && !control.solo) ? 0 : Math.min(Math.max(control.volume, 0), 1),
  );
}

/** Whether a stem is heard (for its row's look and what a screen reader is told). */
export function isAudible(controls: readonly StemControl[], index: number): boolean {
  return (stemGains(controls)[index] ?? 0) > 0;
}
