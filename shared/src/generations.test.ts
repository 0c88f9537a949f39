import { describe, expect, it } from 'vitest';
import {
  audioToMusicSchema,
  lyricsRequestSchema,
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
      duration: 60,
      title: undefined,
      visibility: 'public',
      instrumental: false,
    });
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

  it('keeps duration a whole number from 5 to 240', () => {
    expect(textToMusicSchema.safeParse({ tags: 'pop', duration: 5 }).success).toBe(true);
    expect(textToMusicSchema.safeParse({ tags: 'pop', duration: 240 }).success).toBe(true);
    for (const duration of [4, 241, 30.5, '60']) {
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
