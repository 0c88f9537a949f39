import type { Track } from '@tunesmith/shared/tracks';
import { type Generation, toTrack } from '../domain/tracks/track';

/**
 * Turns stored audio (`s3://bucket/key`) into a short-lived link a browser can
 * play. Handlers call it only for viewers allowed to see the track, so private
 * audio is reachable by its owner alone. Anything not stored by us (null, or a
 * URL from before the copy) passes through unchanged.
 */
export type AudioLinker = (stored: string | null) => Promise<string | null>;

/** The track a viewer sees, with a playable audio link. */
export async function playableTrack(generation: Generation, link: AudioLinker): Promise<Track> {
  const track = toTrack(generation);
  return { ...track, audioUrl: await link(generation.audioUrl) };
}

/** {@link playableTrack} for a list, signing in parallel. */
export const playableTracks = (generations: Generation[], link: AudioLinker): Promise<Track[]> =>
  Promise.all(generations.map((g) => playableTrack(g, link)));
