import type { Track, TrackStatus, Visibility } from '@tunesmith/shared/tracks';

/** A music generation as stored: the public view plus owner and provider fields. */
export interface Generation {
  id: string;
  userId: string;
  type: string;
  title: string | null;
  tags: string;
  lyrics: string | null;
  duration: number | null;
  status: TrackStatus;
  visibility: Visibility;
  showInGallery: boolean;
  inputAudioUrl: string | null;
  audioUrl: string | null;
  seed: number | null;
  falRequestId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page, absent on the last page. */
  cursor?: string;
}

/** Storage port for generations. */
export interface GenerationRepository {
  /** Public, completed, gallery-visible tracks, newest first. */
  listGallery(limit: number, cursor?: string): Promise<Page<Generation>>;
  put(generation: Generation): Promise<void>;
}

/** A track in the gallery: public, completed and not hidden by an admin. */
export function isGalleryVisible(g: Pick<Generation, 'visibility' | 'status' | 'showInGallery'>): boolean {
  return g.visibility === 'public' && g.status === 'completed' && g.showInGallery;
}

/** The fields a screen may see. Owner and provider fields stay on the server. */
export function toTrack(g: Generation): Track {
  return {
    id: g.id,
    title: g.title,
    tags: g.tags,
    lyrics: g.lyrics,
    duration: g.duration,
    status: g.status,
    type: g.type,
    visibility: g.visibility,
    showInGallery: g.showInGallery,
    audioUrl: g.audioUrl,
    createdAt: g.createdAt,
  };
}

/** Where finished audio is kept in the tracks bucket, one object per track id. */
export const TRACK_AUDIO_AREA = 'tracks/';

/** Where audio was kept per user before keys stopped naming the owner (swept on a user delete). */
export const legacyTrackAudioPrefix = (userId: string) => `${TRACK_AUDIO_AREA}${userId}/`;
