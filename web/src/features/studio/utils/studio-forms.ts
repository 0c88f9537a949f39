import {
  type ExtendInput,
  extendSchemaFor,
  type RepaintInput,
  repaintSchemaFor,
} from '@tunesmith/shared/generations';
import type { Track } from '@tunesmith/shared/tracks';
import * as z from 'zod/mini';

/** A typed number of seconds; an empty or unreadable field is not a number, so the schema names it. */
const typedNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/**
 * The tags and lyrics as the call takes them: left out when they are still the
 * parent's (so the server uses the parent's, and an instrumental stays one),
 * sent when the user changed them.
 */
function changedText(parent: Pick<Track, 'tags' | 'lyrics'>, tags: string, lyrics: string) {
  return {
    ...(tags.trim() === parent.tags.trim() ? {} : { tags }),
    ...(lyrics.trim() === (parent.lyrics ?? '').trim() ? {} : { lyrics }),
  };
}

export interface ExtendFormValues {
  seconds: string;
  at: 'start' | 'end';
  tags: string;
  lyrics: string;
}

/** The extend dialog's values checked as the server checks them, with the parent's room to grow. */
export function extendFormSchema(parent: Track) {
  return z.pipe(
    z.pipe(
      z.object({ seconds: z.string(), at: z.enum(['start', 'end']), tags: z.string(), lyrics: z.string() }),
      z.transform(
        ({ seconds, at, tags, lyrics }): ExtendInput => ({
          seconds: typedNumber(seconds),
          at,
          ...changedText(parent, tags, lyrics),
        }),
      ),
    ),
    extendSchemaFor(parent.duration),
  );
}

export interface RepaintFormValues {
  start: string;
  end: string;
  variance: number;
  tags: string;
  lyrics: string;
}

/** The repaint dialog's values checked as the server checks them, within the parent's length. */
export function repaintFormSchema(parent: Track) {
  return z.pipe(
    z.pipe(
      z.object({
        start: z.string(),
        end: z.string(),
        variance: z.number(),
        tags: z.string(),
        lyrics: z.string(),
      }),
      z.transform(
        ({ start, end, variance, tags, lyrics }): RepaintInput => ({
          start: typedNumber(start),
          end: typedNumber(end),
          variance,
          ...changedText(parent, tags, lyrics),
        }),
      ),
    ),
    repaintSchemaFor(parent.duration ?? 0),
  );
}

/** A first section to repaint: from a quarter of the way in to half way (at least a second long). */
export function defaultSection(duration: number | null): { start: number; end: number } {
  const length = Math.max(0, duration ?? 0);
  const start = Math.floor(length / 4);
  return { start, end: Math.min(Math.floor(length), Math.max(start + 1, Math.floor(length / 2))) };
}
