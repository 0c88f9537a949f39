/** Props of the repaint dialog's section picker: drag a region on the track's waveform. */
export interface SectionPickerProps {
  /** The track's peaks link (audiowaveform JSON v2); without it there is nothing to draw. */
  peaksUrl: string | null;
  /** The track's audio, for hearing the section. */
  src: string | null;
  /** Seconds. */
  duration: number;
  /** The selected section, in seconds. */
  start: number;
  end: number;
  onChange(section: { start: number; end: number }): void;
  /** The track's title, for accessible names. */
  title?: string;
}

/** Placeholder until the waveform lands: the dialog's typed start and end are the picker. */
export function SectionPicker(_props: SectionPickerProps) {
  return null;
}
