import * as z from 'zod/mini';
import './schema-messages';

/**
 * A track's lyrics in time (`GET /api/track/{id}/lyrics`): the owner's own
 * lyrics, line by line and word by word, each with when it is sung, in seconds
 * from the start of the track. `source` says where the times came from:
 * `provider` when the music provider reported when it sang each word,
 * `aligned` when the lyrics were aligned to a timed transcription.
 */
export const timedWordSchema = z.object({ start: z.number(), end: z.number(), text: z.string() });
export type TimedWord = z.infer<typeof timedWordSchema>;

export const timedLineSchema = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string(),
  words: z.array(timedWordSchema),
});
export type TimedLine = z.infer<typeof timedLineSchema>;

export const timedLyricsSchema = z.object({
  source: z.enum(['provider', 'aligned']),
  lines: z.array(timedLineSchema),
});
export type TimedLyrics = z.infer<typeof timedLyricsSchema>;

/** `?format=lrc`: the same lyrics as an `.lrc` file. */
export const LYRICS_FORMATS = ['json', 'lrc'] as const;
export const LRC_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** The message of a 404 for a track without timed lyrics (instrumental, or not timed yet). */
export const NO_LYRICS_MESSAGE = 'This track has no timed lyrics';
