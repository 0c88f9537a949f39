import { DURATION_MAX_SECONDS, DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import { LYRICS_MAX_LENGTH, TAGS_MAX_LENGTH } from '@tunesmith/shared/generations';
import { formatTime } from '@/lib/format';
import type { ModelOffer } from '@/lib/models';

/** What a model does with words and length, as the create form needs it. */
export type ModelLimits = Pick<ModelOffer, 'name' | 'lyrics' | 'lyricsLength' | 'promptLength' | 'duration'>;

/** Before the catalogue answers (or when it cannot), the form takes what the API takes by default. */
export const fallbackLimits: ModelLimits = {
  name: '',
  lyrics: 'optional',
  lyricsLength: { min: 0, max: LYRICS_MAX_LENGTH },
  promptLength: { min: 1, max: TAGS_MAX_LENGTH },
  duration: { min: DURATION_MIN_SECONDS, max: DURATION_MAX_SECONDS },
};

const count = (n: number) => n.toLocaleString('en-US');

/** The most characters of lyrics the model takes. */
export const lyricsMax = (model: ModelLimits) => model.lyricsLength?.max ?? LYRICS_MAX_LENGTH;

/** `seconds` within the model's range (unchanged for a model that decides its own length). */
export function clampDuration(model: ModelLimits, seconds: number): number {
  if (!model.duration) return seconds;
  return Math.min(model.duration.max, Math.max(model.duration.min, seconds));
}

/** One line on what a model takes: its words and its length. */
export function modelTakes(model: ModelLimits): string {
  const words =
    model.lyrics === 'none'
      ? 'Instrumental only'
      : model.lyrics === 'required'
        ? 'Always sings: lyrics required'
        : 'Sings your lyrics, or plays an instrumental';
  const length = model.duration
    ? `${formatTime(model.duration.min)} to ${formatTime(model.duration.max)}`
    : 'chooses its own length';
  return `${words}; ${length}.`;
}

/** The hint under the lyrics for a model that always sings. */
export const requiredLyricsHint = (model: ModelLimits) =>
  `${model.name} always sings: write lyrics of ${count(model.lyricsLength?.min ?? 1)} to ${count(lyricsMax(model))} characters.`;

/** What stands in place of the lyrics for an instrumental-only model. */
export const noLyricsNote = (model: ModelLimits) => `${model.name} makes instrumentals: it takes no lyrics.`;

/**
 * What the model cannot take of what was typed, as the message the form
 * shows (the API refuses the same with the same limits); null when it can
 * take all of it. `tags` is the comma-joined list as it is sent; `lyrics` is
 * what will be sent (empty for none).
 */
export function modelRefusal(model: ModelLimits, tags: string, lyrics: string): string | null {
  const { min, max } = model.promptLength;
  if (tags.length > 0 && (tags.length < min || tags.length > max)) {
    return `${model.name} takes tags of ${count(min)} to ${count(max)} characters; these have ${count(tags.length)}.`;
  }
  const typed = lyrics.trim().length;
  if (model.lyrics === 'required' && typed < (model.lyricsLength?.min ?? 1)) return requiredLyricsHint(model);
  if (model.lyrics !== 'none' && typed > lyricsMax(model)) {
    return `${model.name} takes lyrics of up to ${count(lyricsMax(model))} characters; these have ${count(typed)}.`;
  }
  return null;
}
