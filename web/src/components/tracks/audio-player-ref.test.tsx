import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AudioPlayer } from './audio-player';

describe("the player's audio element, handed to the page", () => {
  it('is the element the player plays, so what follows it (the stems) follows Play', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const audio = createRef<HTMLAudioElement>();
    render(<AudioPlayer src="https://cdn.test/a.opus" title="Neon Nights" audioRef={audio} />);

    expect(audio.current).toBe(document.querySelector('audio'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Play Neon Nights' }));
    expect(play.mock.contexts[0]).toBe(audio.current);
  });
});
