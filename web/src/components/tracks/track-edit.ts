import type { EditKind, TrackEdit } from '@tunesmith/shared/tracks';
import { formatSectionTime } from '@/components/waveform/section';

export { formatSectionTime };

const kindNames: Record<EditKind, string> = {
  variation: 'Variation',
  extend: 'Extension',
  repaint: 'Repaint',
};

const fromPhrases: Record<EditKind, string> = {
  variation: 'Variation of',
  extend: 'Extended from',
  repaint: 'Repainted from',
};

/** What a version is called in a list of versions: Variation, Extension, Repaint. */
export function editKindName(kind: EditKind): string {
  return kindNames[kind];
}

/** The words before the parent's name: "Extended from", "Variation of", "Repainted from". */
export function madeFromPhrase(kind: EditKind): string {
  return fromPhrases[kind];
}

/** One line on how a version was made: "Extended by 35 s at the end", "Repainted 0:02–0:06.5", "Variation". */
export function editSummary(edit: TrackEdit): string {
  switch (edit.kind) {
    case 'extend':
      return `Extended by ${edit.seconds} s at the ${edit.at}`;
    case 'repaint':
      return `Repainted ${formatSectionTime(edit.start)}–${formatSectionTime(edit.end)}`;
    default:
      return 'Variation';
  }
}
