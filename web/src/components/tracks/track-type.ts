import { trackTypeLabel } from '@tunesmith/shared/track-values';

const names: Record<string, string> = {
  'text-to-music': 'Text to Music',
  'audio-to-music': 'Audio to Music',
};

/**
 * A track's generation type as the screens write it: the hyphens become spaces
 * (spec 1 section 2), with the casing the Create tabs use (Text to Music, Audio
 * to Music). An unknown type is shown as it comes.
 */
export function trackTypeName(type: string): string {
  return names[type] ?? trackTypeLabel(type);
}
