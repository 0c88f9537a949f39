import { DURATION_MAX_SECONDS } from '@tunesmith/shared/constants';
import {
  type ExtendInput,
  extendSchema,
  generationMessages,
  type RepaintInput,
  repaintSchema,
} from '@tunesmith/shared/generations';
import type { Track } from '@tunesmith/shared/tracks';
import * as z from 'zod';

/** The most seconds a track can be extended by: a whole song is at most DURATION_MAX_SECONDS long. */
export function maxExtendSeconds(duration: number | null): number {
  return Math.floor(DURATION_MAX_SECONDS - (duration ?? 0));
}

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

/** The extend dialog's values checked with the shared `extendSchema`, and the parent's room to grow. */
export function extendFormSchema(parent: Track) {
  const max = maxExtendSeconds(parent.duration);
  return z
    .object({ seconds: z.string(), at: z.enum(['start', 'end']), tags: z.string(), lyrics: z.string() })
    .transform(
      ({ seconds, at, tags, lyrics }): ExtendInput => ({
        seconds: typedNumber(seconds),
        at,
        ...changedText(parent, tags, lyrics),
      }),
    )
    .pipe(
      extendSchema.refine((input) => input.seconds <= max, {
        message: generationMessages.extendTooLong(max),
        path: ['seconds'],
      }),
    );
}

export interface RepaintFormValues {
  start: string;
  end: string;
  variance: number;
  tags: string;
  lyrics: string;
}

/** The repaint dialog's values checked with the shared `repaintSchema`, within the parent's length. */
export function repaintFormSchema(parent: Track) {
  const duration = parent.duration ?? 0;
  return z
    .object({
      start: z.string(),
      end: z.string(),
      variance: z.number(),
      tags: z.string(),
      lyrics: z.string(),
    })
    .transform(
      ({ start, end, variance, tags, lyrics }): RepaintInput => ({
        start: typedNumber(start),
        end: typedNumber(end),
        variance,
        ...changedText(parent, tags, lyrics),
      }),
    )
    .pipe(
      repaintSchema.refine((input) => input.end <= duration, {
        message: generationMessages.sectionOutside(duration),
        path: ['end'],
      }),
    );
}

/** A first section to repaint: from a quarter of the way in to half way (at least a second long). */
export function defaultSection(duration: number | null): { start: number; end: number } {
  const length = Math.max(0, duration ?? 0);
  const start = Math.floor(length / 4);
  return { start, end: Math.min(Math.floor(length), Math.max(start + 1, Math.floor(length / 2))) };
}

/** Seconds as a typed field shows them: whole seconds plain, others to a tenth. */
export function secondsText(seconds: number): string {
  const rounded = Math.round(seconds * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}
