import { DEFAULT_MODEL_ID, musicModel } from '@tunesmith/shared/models';
import type { Track } from '@tunesmith/shared/tracks';

/** The name of the model a track was made with; a track from before the choice was made with the default. */
export function trackModelName(track: Pick<Track, 'model'>): string {
  const id = track.model ?? DEFAULT_MODEL_ID;
  return musicModel(id)?.name ?? id;
}
