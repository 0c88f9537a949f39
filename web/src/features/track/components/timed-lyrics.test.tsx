import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TimedLine } from '@tunesmith/shared/lyrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPlayerLink } from '@/components/tracks/player-link';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { currentLineAt, TimedLyricsList, timedRows } from './timed-lyrics';
import { LyricsInTime } from './track-details';

const line = (start: number, text: string): TimedLine => ({ start, end: start + 2, text, words: [] });
const lines = [
  line(1, 'Holding on to the summer light'),
  line(4, 'Running through the city night'),
  line(8, 'We keep on chasing'),
];

function mockReducedMotion(reduce: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: reduce && query.includes('prefers-reduced-motion'),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

function renderList() {
  const link = createPlayerLink();
  const seek = vi.fn();
  link.attach(seek);
  const scrolled: Array<{ text: string; options: ScrollIntoViewOptions | undefined }> = [];
  vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (
    this: HTMLElement,
    options?: boolean | ScrollIntoViewOptions,
  ) {
    scrolled.push({ text: this.textContent ?? '', options: options as ScrollIntoViewOptions });
  });
  render(
    <>
      <h2 id="lyrics-heading">Lyrics</h2>
      <TimedLyricsList
        text={lines.map((l) => l.text).join('\n')}
        lines={lines}
        link={link}
        label="lyrics-heading"
      />
    </>,
  );
  return { link, seek, scrolled };
}

const written = `[verse]
Holding on to the summer  light
Running through the city night

[chorus]
We keep on chasing`;

const currentLines = () =>
  screen.getAllByRole('button').filter((b) => b.getAttribute('aria-current') === 'true');

afterEach(() => vi.restoreAllMocks());

describe('currentLineAt', () => {
  it('is the last line that has started, none before the first', () => {
    expect(currentLineAt(lines, 0)).toBe(-1);
    expect(currentLineAt(lines, 1)).toBe(0);
    expect(currentLineAt(lines, 7.9)).toBe(1);
    expect(currentLineAt(lines, 100)).toBe(2);
  });
});

describe('timedRows', () => {
  it('keeps every written row in place, the sung ones with their timed line', () => {
    expect(timedRows(written, lines)).toEqual([
      { text: '[verse]' },
      { text: 'Holding on to the summer light', line: 0 },
      { text: 'Running through the city night', line: 1 },
      { text: '' },
      { text: '[chorus]' },
      { text: 'We keep on chasing', line: 2 },
    ]);
  });

  it('shows the timed lines alone when they do not all match the text', () => {
    expect(timedRows('Something else entirely', lines).map((row) => row.line)).toEqual([0, 1, 2]);
  });
});

describe('the lyrics view', () => {
  it('marks the line being sung as current as the music plays, and keeps it in view smoothly', () => {
    mockReducedMotion(false);
    const { link, scrolled } = renderList();
    expect(screen.getByRole('list', { name: 'Lyrics' })).toBeTruthy();
    expect(currentLines()).toEqual([]);

    act(() => link.publish(4.5));
    expect(currentLines().map((b) => b.textContent)).toEqual(['0:04Running through the city night']);
    expect(scrolled.at(-1)).toEqual({
      text: '0:04Running through the city night',
      options: { block: 'nearest', behavior: 'smooth' },
    });

    act(() => link.publish(9));
    expect(currentLines().map((b) => b.textContent)).toEqual(['0:08We keep on chasing']);
    // Nothing on the page announces the change: the lines are plain text to a screen reader.
    expect(document.querySelector('[aria-live]')).toBeNull();
  });

  it('keeps the current line in view without animation when the reader asks for reduced motion', () => {
    mockReducedMotion(true);
    const { link, scrolled } = renderList();
    act(() => link.publish(1.2));
    expect(scrolled.at(-1)?.options).toEqual({ block: 'nearest', behavior: 'auto' });
  });

  it('moves the player to a line that is clicked, or chosen with Enter or Space', async () => {
    mockReducedMotion(false);
    const { seek } = renderList();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /We keep on chasing/ }));
    expect(seek).toHaveBeenLastCalledWith(8);
    screen.getByRole('button', { name: /Running through/ }).focus();
    await user.keyboard('{Enter}');
    expect(seek).toHaveBeenLastCalledWith(4);
    screen.getByRole('button', { name: /Holding on/ }).focus();
    await user.keyboard(' ');
    expect(seek).toHaveBeenLastCalledWith(1);
  });

  it('shows the lyrics as text until they are timed, then the timed lines and the .lrc download', async () => {
    mockReducedMotion(false);
    const fetchMock = mockFetch({
      'GET /api/track/abc/lyrics': () => jsonResponse({ source: 'aligned', lines }),
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <LyricsInTime
          trackId="abc"
          createdAt="2026-11-01T00:00:00.000Z"
          link={createPlayerLink()}
          lyrics={written}
        />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('region', { name: 'Lyrics' }).querySelector('p')?.textContent).toBe(written);
    expect(await screen.findByRole('button', { name: /We keep on chasing/ })).toBeTruthy();
    // The same rows, in the same order: the section tags and the blank row stay where they were.
    expect(
      [...screen.getByRole('list', { name: 'Lyrics' }).querySelectorAll('li')].map((row) => row.textContent),
    ).toEqual([
      '[verse]',
      '0:01Holding on to the summer light',
      '0:04Running through the city night',
      '\u00a0',
      '[chorus]',
      '0:08We keep on chasing',
    ]);
    expect(screen.getByRole('link', { name: 'Download lyrics (.lrc)' }).getAttribute('href')).toBe(
      '/api/track/abc/lyrics?format=lrc',
    );
    expect(fetchMock).toHaveBeenCalled();
  });

  it('keeps the lyrics as text for a track without timed lyrics', async () => {
    mockReducedMotion(false);
    mockFetch({});
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <LyricsInTime
          trackId="abc"
          createdAt="2026-11-01T00:00:00.000Z"
          link={createPlayerLink()}
          lyrics={written}
        />
      </QueryClientProvider>,
    );
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getByRole('region', { name: 'Lyrics' }).textContent).toContain('We keep on chasing');
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download lyrics (.lrc)' })).toBeNull();
  });
});
