import { TRACK_FRAME_TOKENS } from '@tunesmith/shared/pages';
import { describe, expect, it } from 'vitest';
import { trackTemplate } from '../../build/prerender';
import { renderTrackFrame } from './entry';

describe("the track page's frame template", () => {
  it('is the track page from the stand-in: the title as text, every value a token, nothing of the stand-in left', async () => {
    const template = trackTemplate(await renderTrackFrame());
    expect(template).toContain(
      `<h1 id="track-title" class="text-3xl font-bold text-white sm:text-4xl">${TRACK_FRAME_TOKENS.title}</h1>`,
    );
    for (const token of ['title', 'tags', 'lyrics', 'duration', 'time', 'type'] as const)
      expect(template, token).toContain(TRACK_FRAME_TOKENS[token]);
    // A visitor's page: Share, the player and the details, and "About this track" still loading; no owner's actions.
    expect(template).toContain('Share</button>');
    expect(template).toContain(`aria-label="Play ${TRACK_FRAME_TOKENS.title}"`);
    expect(template).toContain('Loading details about this track');
    expect(template).not.toContain('Loading track');
    expect(template).not.toMatch(/<audio[^>]* src=/);
  });
});
