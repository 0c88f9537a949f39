import { UNTITLED_TRACK } from '@tunesmith/shared/track-values';

/** The name a track is shown by: its title, or Untitled Track when it has none. */
export function trackTitle(track: { title?: string | null } | null | undefined): string {
  return track?.title?.trim() || UNTITLED_TRACK;
}
