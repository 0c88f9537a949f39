import { DEFAULT_MODEL_ID, musicModel, studioModel } from '@tunesmith/shared/models';
import type { EditKind, Track } from '@tunesmith/shared/tracks';
import { type ModelOffer, useModels } from '@/lib/models';

/** What the dialog says about the model a studio action runs, once the catalogue has answered. */
export type StudioModel =
  | { state: 'loading' }
  | { state: 'unknown' }
  | { state: 'none'; trackModel: string }
  | { state: 'chosen'; trackModel: string; model: ModelOffer };

/**
 * The model a studio action on `track` runs, as the server picks it: for
 * extend and repaint the track's own model where it runs the action and the
 * user may use it, else the first that does; for a variation the track's own
 * model if usable (a restyle's: one that runs `audio`), else the site's
 * default. Its cost is what the catalogue says the model costs now.
 */
export function useStudioModel(track: Pick<Track, 'model' | 'type'>, kind: EditKind): StudioModel {
  const catalogue = useModels();
  if (catalogue.isPending) return { state: 'loading' };
  if (!catalogue.data) return { state: 'unknown' };
  const { models, defaultModel } = catalogue.data;
  const trackModel = musicModel(track.model ?? DEFAULT_MODEL_ID)?.name ?? track.model ?? DEFAULT_MODEL_ID;
  const usable = (id: string | undefined) => models.find((m) => m.id === id && m.available);
  const runs = (kind: 'audio' | 'extend' | 'repaint') =>
    usable(studioModel(track.model, kind, (m) => usable(m.id) !== undefined)?.id);
  // A variation of a restyle restyles its upload again: a model that runs `audio`.
  const chosen =
    kind !== 'variation'
      ? runs(kind)
      : track.type === 'audio-to-music'
        ? runs('audio')
        : (usable(track.model ?? DEFAULT_MODEL_ID) ?? usable(defaultModel));
  return chosen ? { state: 'chosen', trackModel, model: chosen } : { state: 'none', trackModel };
}
