import { screen, waitFor } from '@testing-library/react';
import type { Track } from '@tunesmith/shared/tracks';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { makeSubscriber, makeTrack } from '@/testing/fixtures';
import { callsMade, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';
import RemixPanel, { remixText } from './remix-panel';

const listed = (body: unknown) => ({
  'GET /api/auth/user': jsonResponse(makeSubscriber()),
  'GET /api/track/src/remixes': jsonResponse(body),
});

function renderPanel(track: Track, props: { owner?: boolean; signedIn?: boolean } = {}) {
  const opened: string[] = [];
  const view = renderWithProviders(
    <RemixPanel
      track={track}
      owner={props.owner ?? false}
      signedIn={props.signedIn ?? true}
      remixForm={() => {
        opened.push(track.id);
        return <p>restyle form</p>;
      }}
    />,
  );
  return { ...view, opened };
}

describe("a track's remixes", () => {
  it('lets the owner of a public track allow remixes with an explained switch, and tells them of private remixes', async () => {
    const fetchMock = mockFetch({
      ...listed({ remixes: [makeTrack({ id: 'r1', title: 'Jazz Take' })], privateCount: 2 }),
      'PATCH /api/generation/src/remixable': jsonResponse(makeTrack({ id: 'src', remixable: true })),
    });
    const { user } = renderPanel(makeTrack({ id: 'src', remixable: false }), { owner: true });

    const toggle = screen.getByRole('switch', { name: remixText.switchLabel });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText(remixText.switchHint)).toBeDefined();
    await user.click(toggle);
    await waitFor(() => expect(callsMade(fetchMock)).toContain('PATCH /api/generation/src/remixable'));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ remixable: true });

    expect(await screen.findByRole('link', { name: 'Jazz Take' })).toBeDefined();
    expect(screen.getByText('2 private remixes')).toBeDefined();
    expect(screen.queryByRole('button', { name: remixText.remix })).toBeNull();
  });

  it('offers Remix to another signed-in user only where the owner allows it', async () => {
    mockFetch(listed({ remixes: [] }));
    const { user, opened } = renderPanel(makeTrack({ id: 'src', remixable: true }));
    expect(await screen.findByText(remixText.none)).toBeDefined();
    expect(screen.queryByRole('switch')).toBeNull();
    await user.click(screen.getByRole('button', { name: remixText.remix }));
    expect(screen.getByText('restyle form')).toBeDefined();
    expect(opened).toEqual(['src']);
  });

  it.each([
    ['not remixable', makeTrack({ id: 'src', remixable: false }), true],
    ['seen by a visitor', makeTrack({ id: 'src', remixable: true }), false],
  ])('offers no Remix on a track %s', async (_label, track, signedIn) => {
    mockFetch(listed({ remixes: [] }));
    renderPanel(track, { signedIn });
    expect(await screen.findByText(remixText.none)).toBeDefined();
    expect(screen.queryByRole('button', { name: remixText.remix })).toBeNull();
  });

  it('credits the source of a remix, or says it is no longer public', async () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(makeSubscriber()) });
    const credited = makeTrack({
      id: 'r1',
      visibility: 'private',
      remixOf: {
        available: true,
        trackId: 'src',
        title: 'Harbour',
        creator: { handle: 'ada', displayName: 'Ada' },
      },
    });
    const { unmount } = renderPanel(credited);
    expect(screen.getByRole('link', { name: 'Harbour' }).getAttribute('href')).toBe('/track/src');
    expect(screen.getByRole('link', { name: 'Ada' }).getAttribute('href')).toBe('/@ada');
    expect(screen.getByText(/Remix of/).textContent).toBe('Remix of Harbour by Ada');
    unmount();

    renderPanel(
      makeTrack({
        id: 'r2',
        visibility: 'private',
        remixOf: { available: false, trackId: null, title: null, creator: null },
      }),
    );
    expect(screen.getByText(remixText.gone)).toBeDefined();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it("marks its source's remixes to be read again once the remix is finished", async () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(makeSubscriber()) });
    const credit = { available: true, trackId: 'src', title: 'Harbour', creator: null } as const;
    const making = makeTrack({ id: 'r1', status: 'generating', audioUrl: null, remixOf: credit });
    function Remix() {
      const [track, setTrack] = useState(making);
      return (
        <>
          <button
            type="button"
            onClick={() => setTrack({ ...making, status: 'completed', audioUrl: 'https://a/r1.wav' })}
          >
            finish
          </button>
          <RemixPanel track={track} owner signedIn remixForm={() => null} />
        </>
      );
    }
    const { queryClient, user } = renderWithProviders(<Remix />);
    const sourceRemixes = ['track', 'src', 'remixes'];
    // The source's list as read while the remix was being made: it is not in it yet.
    queryClient.setQueryData(sourceRemixes, { remixes: [] });
    expect(queryClient.getQueryState(sourceRemixes)?.isInvalidated).toBe(false);
    await user.click(screen.getByRole('button', { name: 'finish' }));
    expect(queryClient.getQueryState(sourceRemixes)?.isInvalidated).toBe(true);
  });
});
