import type { Track } from '@tunesmith/shared/tracks';
import { type Generation, toTrack } from '../domain/tracks/track';

/**
 * Turns stored audio (`s3://bucket/key`) into a short-lived link a browser can
 * play. Handlers call it only for viewers allowed to see the track, so private
 * audio is reachable by its owner alone. Anything not stored by us (null, or a
 * URL from before the copy) passes through unchanged.
 */
export type AudioLinker = (stored: string | null) => Promise<string | null>;

/**
 * A track with its stored audio turned into a playable link, and its
 * waveform's peaks into a link signed the same way (same path, same life).
 */
export async function withPlayableAudio(track: Track, link: AudioLinker): Promise<Track> {
  const [audioUrl, peaksUrl] = await Promise.all([link(track.audioUrl), link(track.peaksUrl)]);
  return { ...track, audioUrl, peaksUrl };
}

/** The track a viewer sees, with a playable audio link. */
export const playableTrack = (generation: Generation, link: AudioLinker): Promise<Track> =>
  withPlayableAudio(toTrack(generation), link);

/** {@link playableTrack} for a list, signing in parallel. */
export const playableTracks = (generations: Generation[], link: AudioLinker): Promise<Track[]> =>
  Promise.all(generations.map((g) => playableTrack(g, link)));
