import type { Track } from '@tunesmith/shared/tracks';
import { normalStatus } from '@/components/tracks/track-status';

export const statusFilters = ['all', 'completed', 'generating', 'pending', 'failed'] as const;
export const typeFilters = ['all', 'text-to-music', 'audio-to-music'] as const;
export const visibilityFilters = ['all', 'public', 'private'] as const;

export interface LibraryFilters {
  search: string;
  status: (typeof statusFilters)[number];
  type: (typeof typeFilters)[number];
  visibility: (typeof visibilityFilters)[number];
}

export const noFilters: LibraryFilters = { search: '', status: 'all', type: 'all', visibility: 'all' };

/** The tracks that match a search (title or tags, any case) and the three filters. */
export function filterTracks(tracks: readonly Track[], filters: LibraryFilters): Track[] {
  const needle = filters.search.trim().toLowerCase();
  return tracks.filter(
    (track) =>
      (!needle ||
        (track.title ?? '').toLowerCase().includes(needle) ||
        track.tags.toLowerCase().includes(needle)) &&
      (filters.status === 'all' || normalStatus(track.status) === filters.status) &&
      (filters.type === 'all' || track.type === filters.type) &&
      (filters.visibility === 'all' || track.visibility === filters.visibility),
  );
}

/** The four counters over the whole library: Total Tracks, Completed, Public, Private. */
export function libraryCounts(tracks: readonly Track[]) {
  return {
    total: tracks.length,
    completed: tracks.filter((track) => track.status === 'completed').length,
    public: tracks.filter((track) => track.visibility === 'public').length,
    private: tracks.filter((track) => track.visibility === 'private').length,
  };
}

/** The lyrics preview: the first 100 characters, with an ellipsis when there is more. */
export function lyricsPreview(lyrics: string | null, length: number): string {
  const text = (lyrics ?? '').trim();
  return text.length > length ? `${text.slice(0, length)}...` : text;
}
