/** A track's plain values and helpers, without zod (`tracks.ts` re-exports them beside the schemas). */

export const trackStatuses = ['pending', 'generating', 'completed', 'failed'] as const;
export const trackTypes = ['text-to-music', 'audio-to-music'] as const;
export const visibilities = ['public', 'private'] as const;

export type TrackStatus = (typeof trackStatuses)[number];
export type TrackType = (typeof trackTypes)[number];
export type Visibility = (typeof visibilities)[number];

/** The ways a track is made from another track (the studio). */
export const editKinds = ['variation', 'extend', 'repaint'] as const;
export type EditKind = (typeof editKinds)[number];

export const UNTITLED_TRACK = 'Untitled Track';

/**
 * Whether a track is still on its way: pending or generating (`processing` is
 * the provider's word for generating). Such a track is worth checking again.
 */
export function isInProgress(status: string): boolean {
  return status === 'pending' || status === 'generating' || status === 'processing';
}

/**
 * A finished track that plays while its download is being prepared (marked,
 * signed, hashed): moments, during which pages check it again.
 */
export function isDownloadPreparing(track: { status: string; downloadReady?: boolean }): boolean {
  return track.status === 'completed' && track.downloadReady === false;
}

/** The subtitle on a track card: AI Generated Music for text-to-music, else Remix. */
export function trackSubtitle(type: string): string {
  return type === 'text-to-music' ? 'AI Generated Music' : 'Remix';
}

/** The type label on a track card: the type with hyphens as spaces. */
export function trackTypeLabel(type: string): string {
  return type.replace(/-/g, ' ');
}
