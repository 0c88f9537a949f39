import { trackTypeLabel } from './track-values';

/**
 * A track's values as its page writes them, for the SPA and for the share
 * documents filled in on the server (decision 026): one formatter each, so
 * the document a visitor paints first says what the app then shows.
 */

/** Seconds as m:ss (0:00 for unknown or negative values). */
export function formatTime(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A date as `Mar 15, 2024` ('' for an unreadable value): in the reader's time
 * zone on the page, in UTC in a document written on the server, which cannot
 * know the reader's. Written from the Date's own fields rather than with
 * Intl: a page's first Intl date format loads the locale's data and builds
 * its pattern, tens of milliseconds of a phone's main thread while the page
 * it renders waits. The words are the en-US ones Intl gives.
 */
export function formatDate(iso: string, zone: 'local' | 'utc' = 'local'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return zone === 'utc'
    ? `${SHORT_MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`
    : `${SHORT_MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/** What a value the track does not have is shown as. */
export const NO_VALUE = '—';

/** The track page's duration: whole seconds (`95 seconds`), or a dash when unknown. */
export function trackDurationText(duration: number | null | undefined): string {
  return duration != null ? `${Math.round(duration)} seconds` : NO_VALUE;
}

/** The track page's tags, or a dash when there are none. */
export function trackTagsText(tags: string): string {
  return tags || NO_VALUE;
}

/** The track page's lyrics, trimmed; undefined for a track without (it says {@link NO_LYRICS} instead). */
export function trackLyricsText(lyrics: string | null | undefined): string | undefined {
  return lyrics?.trim() || undefined;
}

/** What the track page says where an instrumental track's lyrics would be. */
export const NO_LYRICS = 'Instrumental: this track has no lyrics.';

const typeNames: Record<string, string> = {
  'text-to-music': 'Text to Music',
  'audio-to-music': 'Audio to Music',
};

/**
 * A track's generation type as the screens write it: the hyphens become spaces
 * (spec 1 section 2), with the casing the Create tabs use (Text to Music, Audio
 * to Music). An unknown type is shown as it comes.
 */
export function trackTypeName(type: string): string {
  return typeNames[type] ?? trackTypeLabel(type);
}
