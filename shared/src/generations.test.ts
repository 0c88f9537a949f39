import { describe, expect, it } from 'vitest';
import {
  audioToMusicSchema,
  extendRoom,
  extendSchema,
  extendSchemaFor,
  generationMessages,
  lyricsRequestSchema,
  repaintSchema,
  repaintSchemaFor,
  songDurationInvalid,
  textToMusicSchema,
  updateGenerationSchema,
  usualGenerationLabel,
  usualGenerationSeconds,
} from './generations';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('generation request schemas', () => {
  it('fills the text-to-music defaults', () => {
    expect(textToMusicSchema.parse({ tags: ' pop ' })).toEqual({
      tags: 'pop',
      lyrics: '',
      duration: undefined,
      title: undefined,
      visibility: 'public',
      model: undefined,
      instrumental: false,
      bpm: undefined,
      key: undefined,
    });
  });

  it('takes an optional whole tempo from 40 to 240 BPM', () => {
    expect(textToMusicSchema.parse({ tags: 'pop', bpm: 40 }).bpm).toBe(40);
    expect(textToMusicSchema.parse({ tags: 'pop', bpm: 240 }).bpm).toBe(240);
    expect(textToMusicSchema.parse({ tags: 'pop', bpm: null }).bpm).toBeUndefined();
    for (const bpm of [39, 241, 120.5, '120', Number.NaN])
      expect(firstMessage(textToMusicSchema.safeParse({ tags: 'pop', bpm }))).toBe(
        generationMessages.bpmInvalid,
      );
  });

  it("takes an optional whole duration within every model's lengths, and says which in its refusal", () => {
    expect(textToMusicSchema.parse({ tags: 'pop', duration: 1 }).duration).toBe(1);
    expect(textToMusicSchema.parse({ tags: 'pop', duration: 240 }).duration).toBe(240);
    expect(songDurationInvalid).toBe('Duration must be a whole number of seconds from 1 to 240.');
    for (const duration of [0, 241, 30.5, '30'])
      expect(firstMessage(textToMusicSchema.safeParse({ tags: 'pop', duration }))).toBe(songDurationInvalid);
  });

  it('takes an optional key with sharps or flats, kept in one spelling', () => {
    expect(textToMusicSchema.parse({ tags: 'pop', key: 'A minor' }).key).toBe('A minor');
    expect(textToMusicSchema.parse({ tags: 'pop', key: ' eb Major ' }).key).toBe('D# major');
    expect(textToMusicSchema.parse({ tags: 'pop', key: 'B♭ minor' }).key).toBe('A# minor');
    expect(textToMusicSchema.parse({ tags: 'pop', key: 'Cb major' }).key).toBe('B major');
    expect(textToMusicSchema.parse({ tags: 'pop', key: '' }).key).toBeUndefined();
    for (const key of ['H major', 'A dorian', 'Am', 'A#b minor', 7])
      expect(firstMessage(textToMusicSchema.safeParse({ tags: 'pop', key }))).toBe(
        generationMessages.keyInvalid,
      );
  });

  it('takes an instrumental only without lyrics', () => {
    expect(textToMusicSchema.parse({ tags: 'pop', instrumental: true, lyrics: '  ' })).toMatchObject({
      instrumental: true,
      lyrics: '',
    });
    expect(
      firstMessage(textToMusicSchema.safeParse({ tags: 'pop', instrumental: true, lyrics: 'la la' })),
    ).toBe(generationMessages.instrumentalWithLyrics);
    expect(textToMusicSchema.safeParse({ tags: 'pop', instrumental: 'yes' }).success).toBe(false);
  });

  it('uses the spec messages', () => {
    expect(firstMessage(textToMusicSchema.safeParse({ tags: '  ' }))).toBe(
      'Please enter at least one genre tag.',
    );
    expect(firstMessage(textToMusicSchema.safeParse({}))).toBe('Please enter at least one genre tag.');
    expect(firstMessage(textToMusicSchema.safeParse({ tags: 'pop', title: 'x'.repeat(101) }))).toBe(
      'Title must be 100 characters or less.',
    );
    expect(firstMessage(audioToMusicSchema.safeParse({ tags: 'pop' }))).toBe('Audio file URL is required');
    expect(firstMessage(updateGenerationSchema.safeParse({ title: '   ', visibility: 'public' }))).toBe(
      'Title cannot be empty.',
    );
    expect(firstMessage(lyricsRequestSchema.safeParse({ prompt: '' }))).toBe(
      'Please enter what your song is about.',
    );
    expect(firstMessage(textToMusicSchema.safeParse({ tags: 'pop', visibility: 'secret' }))).toBe(
      'Visibility must be public or private.',
    );
  });

  it('keeps duration a whole number within what some model makes (1 to 240); the model checks its own range', () => {
    expect(textToMusicSchema.safeParse({ tags: 'pop', duration: 1 }).success).toBe(true);
    expect(textToMusicSchema.safeParse({ tags: 'pop', duration: 240 }).success).toBe(true);
    for (const duration of [0, 241, 30.5, '60']) {
      expect(textToMusicSchema.safeParse({ tags: 'pop', duration }).success).toBe(false);
    }
  });

  it('trims the title and caps tags and lyrics', () => {
    expect(updateGenerationSchema.parse({ title: '  Night Drive ', visibility: 'private' })).toEqual({
      title: 'Night Drive',
      visibility: 'private',
    });
    expect(textToMusicSchema.safeParse({ tags: 'x'.repeat(501) }).success).toBe(false);
    expect(textToMusicSchema.safeParse({ tags: 'pop', lyrics: 'x'.repeat(5001) }).success).toBe(false);
  });
});

describe('studio request schemas', () => {
  it('extends by whole seconds from 5 to 240, at the end unless told', () => {
    expect(extendSchema.parse({ seconds: 30 })).toEqual({ seconds: 30, at: 'end' });
    expect(extendSchema.parse({ seconds: 5, at: 'start', tags: ' rock ' })).toEqual({
      seconds: 5,
      at: 'start',
      tags: 'rock',
    });
    for (const seconds of [4, 241, 7.5, '30', undefined]) {
      expect(firstMessage(extendSchema.safeParse({ seconds }))).toBe(
        'Extend by a whole number of seconds from 5 to 240.',
      );
    }
    expect(firstMessage(extendSchema.safeParse({ seconds: 30, at: 'middle' }))).toBe(
      generationMessages.extendAtInvalid,
    );
  });

  it("names a track's own room in every refusal of its seconds, as its hint does", () => {
    const schema = extendSchemaFor(20.4);
    expect(extendRoom(20.4)).toBe(219);
    expect(schema.parse({ seconds: 219 })).toEqual({ seconds: 219, at: 'end' });
    for (const seconds of [4, 220, 7.5, undefined]) {
      expect(firstMessage(schema.safeParse({ seconds }))).toBe(
        'Extend by a whole number of seconds from 5 to 219.',
      );
    }
    expect(generationMessages.extendSecondsHint(219)).toBe(
      'From 5 to 219 seconds (a track is at most 240 seconds long).',
    );
  });

  it('refuses any extension of a track with no room left', () => {
    for (const duration of [236, 240]) {
      expect(firstMessage(extendSchemaFor(duration).safeParse({ seconds: 5 }))).toBe(
        'This track is already as long as a track can be (240 seconds).',
      );
    }
  });

  it('repaints a section of at least a second that starts before it ends', () => {
    expect(repaintSchema.parse({ start: 10, end: 12.5 })).toEqual({ start: 10, end: 12.5, variance: 0.5 });
    expect(firstMessage(repaintSchema.safeParse({ start: 12, end: 10 }))).toBe(
      generationMessages.sectionOrder,
    );
    expect(firstMessage(repaintSchema.safeParse({ start: 10, end: 10.5 }))).toBe(
      generationMessages.sectionTooShort,
    );
    expect(firstMessage(repaintSchema.safeParse({ start: '1', end: 10 }))).toBe(
      generationMessages.sectionTimeInvalid,
    );
    expect(firstMessage(repaintSchema.safeParse({ start: 0, end: 10, variance: 1.5 }))).toBe(
      generationMessages.varianceInvalid,
    );
    expect(firstMessage(repaintSchema.safeParse({ start: 0, end: 10, tags: ' ' }))).toBe(
      generationMessages.tagsRequired,
    );
  });

  it("names the track's range for a time before its start or after its end, as its hint does", () => {
    const schema = repaintSchemaFor(90.06);
    for (const section of [
      { start: -1, end: 10 },
      { start: 10, end: 90.5 },
    ]) {
      expect(firstMessage(schema.safeParse(section))).toBe(
        'The section must lie within the track (0 to 90 seconds).',
      );
    }
    expect(schema.parse({ start: 80, end: 90.06 })).toMatchObject({ start: 80, end: 90.06 });
    expect(generationMessages.sectionHint(90.06)).toBe(
      'Anywhere from 0 to 90 seconds, at least 1 second long.',
    );
    expect(generationMessages.sectionOutside(60.55)).toBe(
      'The section must lie within the track (0 to 60.5 seconds).',
    );
  });
});

describe('the usual wait for a track', () => {
  it('scales with the requested length, in words a person reads', () => {
    expect(usualGenerationLabel(30)).toBe('usually 30-60 seconds');
    expect(usualGenerationLabel(60)).toBe('usually 30-60 seconds');
    expect(usualGenerationLabel(120)).toBe('usually 50-90 seconds');
    expect(usualGenerationLabel(180)).toBe('usually 1-2 minutes');
    expect(usualGenerationLabel(240)).toBe('usually 1-3 minutes');
    expect(usualGenerationSeconds(240).high).toBeGreaterThan(usualGenerationSeconds(60).high);
  });
});
