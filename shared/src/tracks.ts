import * as z from 'zod';

export const trackStatuses = ['pending', 'generating', 'completed', 'failed'] as const;
export const trackTypes = ['text-to-music', 'audio-to-music'] as const;
export const visibilities = ['public', 'private'] as const;

export type TrackStatus = (typeof trackStatuses)[number];
export type TrackType = (typeof trackTypes)[number];
export type Visibility = (typeof visibilities)[number];

/** A track as the API returns it (track card, track page, gallery). */
export const trackSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  tags: z.string(),
  lyrics: z.string().nullable(),
  duration: z.number().nullable(),
  status: z.enum(trackStatuses),
  type: z.string(),
  visibility: z.enum(visibilities),
  showInGallery: z.boolean(),
  audioUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type Track = z.infer<typeof trackSchema>;

export const trackListSchema = z.array(trackSchema);

export const UNTITLED_TRACK = 'Untitled Track';

/**
 * Whether a track is still on its way: pending or generating (`processing` is
 * the provider's word for generating). Such a track is worth checking again.
 */
export function isInProgress(status: string): boolean {
  return status === 'pending' || status === 'generating' || status === 'processing';
}

/** The subtitle on a track card: AI Generated Music for text-to-music, else Remix. */
export function trackSubtitle(type: string): string {
  return type === 'text-to-music' ? 'AI Generated Music' : 'Remix';
}

/** The type label on a track card: the type with hyphens as spaces. */
export function trackTypeLabel(type: string): string {
  return type.replace(/-/g, ' ');
}
