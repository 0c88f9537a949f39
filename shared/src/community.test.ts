import { describe, expect, it } from 'vitest';
import {
  BIO_MAX,
  createPlaylistSchema,
  DISPLAY_NAME_MAX,
  HANDLE_MAX,
  HANDLE_PATTERN,
  PLAYLIST_DESCRIPTION_MAX,
  PLAYLIST_TITLE_MAX,
  publicProfileInputSchema,
} from './community';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('community inputs', () => {
  it('says in words how long a playlist title and description may be', () => {
    const title = 'x'.repeat(PLAYLIST_TITLE_MAX + 1);
    expect(messageOf(createPlaylistSchema.safeParse({ title, visibility: 'public' }))).toBe(
      'Keep the title to 100 characters.',
    );
    const description = 'x'.repeat(PLAYLIST_DESCRIPTION_MAX + 1);
    expect(
      messageOf(createPlaylistSchema.safeParse({ title: 'Mix', description, visibility: 'public' })),
    ).toBe('Keep the description to 1,000 characters.');
    expect(
      createPlaylistSchema.safeParse({ title: 'x'.repeat(PLAYLIST_TITLE_MAX), visibility: 'public' }).success,
    ).toBe(true);
  });

  it('says in words how long a display name and bio may be', () => {
    const profile = { handle: 'ada', displayName: 'Ada' };
    expect(
      messageOf(
        publicProfileInputSchema.safeParse({ ...profile, displayName: 'x'.repeat(DISPLAY_NAME_MAX + 1) }),
      ),
    ).toBe('Keep the display name to 50 characters.');
    expect(messageOf(publicProfileInputSchema.safeParse({ ...profile, bio: 'x'.repeat(BIO_MAX + 1) }))).toBe(
      'Keep the bio to 300 characters.',
    );
  });

  it('takes handles up to HANDLE_MAX characters', () => {
    expect(HANDLE_PATTERN.test('a'.repeat(HANDLE_MAX))).toBe(true);
    expect(HANDLE_PATTERN.test('a'.repeat(HANDLE_MAX + 1))).toBe(false);
  });
});
