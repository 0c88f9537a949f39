import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Stem } from '@tunesmith/shared/stems';
import { useRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fakeAudio } from '@/testing/fake-audio';
import { mockFetch } from '@/testing/mock-fetch';
import StemsMixer from './stems-mixer';

const names = ['vocals', 'drums', 'bass', 'other'];
const stems: (Stem & { audioUrl: string })[] = names.map((name) => ({
  name,
  audioUrl: `https://cdn.test/stems/${name}.opus`,
  peaksUrl: null,
  sha256: 'a'.repeat(64),
  loudness: null,
}));

function stemAnswers(fail: string[] = []) {
  return mockFetch(
    Object.fromEntries(
      names.map((name) => [
        `GET /stems/${name}.opus`,
        () => (fail.includes(name) ? new Response('gone', { status: 404 }) : new Response(new Uint8Array(8))),
      ]),
    ),
  );
}

function renderMixer(refresh?: () => Promise<(Stem & { audioUrl: string })[]>) {
  const audio = fakeAudio();
  function Player() {
    const ref = useRef<HTMLAudioElement>(null);
    return (
      <>
        {/* biome-ignore lint/a11y/useMediaCaption: music without words */}
        <audio ref={ref} src="https://cdn.test/track.opus" />
        <StemsMixer stems={stems} audio={ref} refresh={refresh} createContext={audio.createContext} />
      </>
    );
  }
  const user = userEvent.setup();
  render(<Player />);
  const element = document.querySelector('audio') as HTMLAudioElement;
  return { user, element, context: audio.context };
}

/** The audio element as playing (or not) at `time`. */
function playerAt(element: HTMLAudioElement, time: number, paused: boolean) {
  vi.spyOn(element, 'paused', 'get').mockReturnValue(paused);
  vi.spyOn(element, 'seeking', 'get').mockReturnValue(false);
  vi.spyOn(element, 'currentTime', 'get').mockReturnValue(time);
}

describe('the stems mixer', () => {
  it("labels each control with its stem's name", () => {
    stemAnswers();
    renderMixer();
    for (const name of names) {
      expect(screen.getByRole('button', { name: `Mute ${name}` }).getAttribute('aria-pressed')).toBe('false');
      expect(screen.getByRole('button', { name: `Solo ${name}` }).getAttribute('aria-pressed')).toBe('false');
      const label = `${name.charAt(0).toUpperCase()}${name.slice(1)} volume`;
      const volume = screen.getByRole('slider', { name: label }) as HTMLInputElement;
      expect(volume.value).toBe('100');
      expect(volume.getAttribute('aria-valuetext')).toBe('100%');
    }
  });

  it('fetches nothing until used; a mute loads every stem, silences the track and sets the gains', async () => {
    const fetchMock = stemAnswers();
    const { user, element, context } = renderMixer();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toContain('Mute, solo or set the level');

    await user.click(screen.getByRole('button', { name: 'Mute drums' }));

    expect(screen.getByRole('button', { name: 'Mute drums' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(element.muted).toBe(true));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(stems.map((stem) => stem.audioUrl));
    expect(context.decoded).toHaveLength(4);
    expect(context.levels()).toEqual([1, 0, 1, 1]);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('solos by keyboard, and sets a volume from its slider (a native range: arrows, Page keys, Home, End)', async () => {
    stemAnswers();
    const { user, context, element } = renderMixer();
    screen.getByRole('button', { name: 'Solo vocals' }).focus();
    await user.keyboard(' ');
    await waitFor(() => expect(element.muted).toBe(true));
    expect(screen.getByRole('button', { name: 'Solo vocals' }).getAttribute('aria-pressed')).toBe('true');
    expect(context.levels()).toEqual([1, 0, 0, 0]);

    // Mute, Solo, then the volume: each stem's controls in that order.
    await user.tab();
    const vocals = screen.getByRole('slider', { name: 'Vocals volume' }) as HTMLInputElement;
    expect(document.activeElement).toBe(vocals);
    fireEvent.change(vocals, { target: { value: '90' } });
    expect(vocals.getAttribute('aria-valuetext')).toBe('90%');
    expect(context.levels()).toEqual([0.9, 0, 0, 0]);
  });

  it('follows the player: stems start together where it plays, again where it seeks, and stop when it pauses', async () => {
    stemAnswers();
    const { element, context } = renderMixer();
    playerAt(element, 12.5, false);
    context.currentTime = 3;
    act(() => {
      fireEvent(element, new Event('play'));
    });
    // The first play loads the stems (the track sounds meanwhile), then they take over where it is.
    await waitFor(() => expect(context.playing()).toHaveLength(4));
    expect(element.muted).toBe(true);
    expect(context.playing().map((source) => source.started)).toEqual(
      names.map(() => ({ when: 3, offset: 12.5 })),
    );

    playerAt(element, 80, false);
    context.currentTime = 5;
    act(() => {
      fireEvent(element, new Event('seeking'));
    });
    expect(context.playing()).toHaveLength(0);
    act(() => {
      fireEvent(element, new Event('seeked'));
    });
    expect(context.playing().map((source) => source.started)).toEqual(
      names.map(() => ({ when: 5, offset: 80 })),
    );

    playerAt(element, 81, true);
    act(() => {
      fireEvent(element, new Event('pause'));
    });
    expect(context.playing()).toHaveLength(0);
  });

  it('brings the stems in at once when the track is already playing as the mixer arrives', async () => {
    stemAnswers();
    const audio = fakeAudio();
    vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockReturnValue(false);
    vi.spyOn(HTMLMediaElement.prototype, 'seeking', 'get').mockReturnValue(false);
    vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockReturnValue(42);
    function Player() {
      const ref = useRef<HTMLAudioElement>(null);
      return (
        <>
          {/* biome-ignore lint/a11y/useMediaCaption: music without words */}
          <audio ref={ref} src="https://cdn.test/track.opus" />
          <StemsMixer stems={stems} audio={ref} createContext={audio.createContext} />
        </>
      );
    }
    render(<Player />);
    await waitFor(() => expect(audio.context.playing()).toHaveLength(4));
    expect(audio.context.playing().map((source) => source.started?.offset)).toEqual([42, 42, 42, 42]);
  });

  it('starts the stems again where the player is when they have strayed from it (a stall)', async () => {
    stemAnswers();
    const { element, context, user } = renderMixer();
    playerAt(element, 10, false);
    await user.click(screen.getByRole('button', { name: 'Mute bass' }));
    await waitFor(() => expect(context.playing()).toHaveLength(4));

    context.currentTime += 0.1;
    playerAt(element, 10.1, false);
    act(() => {
      fireEvent(element, new Event('timeupdate'));
    });
    expect(context.sources).toHaveLength(4);

    playerAt(element, 11, false);
    act(() => {
      fireEvent(element, new Event('timeupdate'));
    });
    expect(context.sources).toHaveLength(8);
    expect(context.playing().map((source) => source.started?.offset)).toEqual([11, 11, 11, 11]);
  });

  it('says when the stems cannot be loaded, leaves the track its sound, and tries again with fresh links', async () => {
    // The links the page was given have expired; asking for the stems again gives new ones.
    const fetchMock = stemAnswers(['bass']);
    const fresh = stems.map((stem) => ({ ...stem, audioUrl: stem.audioUrl.replace('/stems/', '/fresh/') }));
    const refresh = vi.fn(async () => fresh);
    const { user, element } = renderMixer(refresh);
    await user.click(screen.getByRole('button', { name: 'Solo vocals' }));

    expect(
      await screen.findByText('The stems could not be loaded, so the track plays as it was mixed.'),
    ).toBeDefined();
    expect(element.muted).toBe(false);

    fetchMock.mockImplementation(async () => new Response(new Uint8Array(8)));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(element.muted).toBe(true));
    expect(refresh).toHaveBeenCalledOnce();
    expect(fetchMock.mock.calls.slice(-4).map(([url]) => String(url))).toEqual(
      fresh.map((stem) => stem.audioUrl),
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('keeps the track sounding until the browser lets the stems start, then silences it', async () => {
    stemAnswers();
    const { user, element, context } = renderMixer();
    context.state = 'suspended';
    context.resumable = false;
    playerAt(element, 3, false);
    await user.click(screen.getByRole('button', { name: 'Mute drums' }));
    await waitFor(() => expect(context.playing()).toHaveLength(4));
    expect(element.muted).toBe(false);
    // Its clock stands still meanwhile: that is not a stray to start again from.
    playerAt(element, 4, false);
    act(() => {
      fireEvent(element, new Event('timeupdate'));
    });
    expect(context.sources).toHaveLength(4);

    // The next press lets it start.
    context.resumable = true;
    await user.click(screen.getByRole('button', { name: 'Mute drums' }));
    await waitFor(() => expect(element.muted).toBe(true));
    expect(context.state).toBe('running');
  });

  it('gives the track its sound back when it leaves the page', async () => {
    stemAnswers();
    const audio = fakeAudio();
    function Player({ mixer }: { mixer: boolean }) {
      const ref = useRef<HTMLAudioElement>(null);
      return (
        <>
          {/* biome-ignore lint/a11y/useMediaCaption: music without words */}
          <audio ref={ref} src="https://cdn.test/track.opus" />
          {mixer ? <StemsMixer stems={stems} audio={ref} createContext={audio.createContext} /> : null}
        </>
      );
    }
    const user = userEvent.setup();
    const { rerender } = render(<Player mixer />);
    const element = document.querySelector('audio') as HTMLAudioElement;
    await user.click(screen.getByRole('button', { name: 'Mute other' }));
    await waitFor(() => expect(element.muted).toBe(true));

    rerender(<Player mixer={false} />);
    expect(element.muted).toBe(false);
    expect(audio.context.state).toBe('closed');
  });
});
