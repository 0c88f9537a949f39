import { screen, waitFor, within } from '@testing-library/react';
import type { TrackStems } from '@tunesmith/shared/stems';
import { describe, expect, it, vi } from 'vitest';
import { trackStemsQueryKey } from '@/components/tracks/track-stems';
import { makeSubscriber, makeTrack, makeUser } from '@/testing/fixtures';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderWithProviders } from '@/testing/render';
import { StemsDialog } from './stems-dialog';
import { StudioActions } from './studio-actions';
import { StudioMenu } from './studio-menu';

const track = makeTrack({ id: 'neon', title: 'Neon Nights', duration: 90 });

function renderDialog({
  user = makeSubscriber({ generationsUsedThisMonth: 2 }),
  stems = { status: 'none', stems: [] },
  routes = {},
}: {
  user?: ReturnType<typeof makeUser>;
  stems?: TrackStems;
  routes?: Record<string, MockResponse>;
} = {}) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': jsonResponse(user),
    'GET /api/track/neon/stems': jsonResponse(stems),
    ...routes,
  });
  const onClose = vi.fn();
  const rendered = renderWithProviders(<StemsDialog track={track} onClose={onClose} />);
  const posts = () =>
    fetchMock.mock.calls
      .filter(
        ([input, init]) => String(input).endsWith('/api/generation/neon/stems') && init?.method === 'POST',
      )
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
  return { ...rendered, fetchMock, onClose, posts };
}

const dialog = async () => within(await screen.findByRole('alertdialog', { name: 'Separate stems' }));

describe('the Separate stems dialog', () => {
  it('says what it makes and what it costs before anything is spent', async () => {
    const { posts } = renderDialog();
    const separate = await dialog();

    expect(
      await separate.findByText('Uses 1 of your 30 generations this week. You have 28 left.'),
    ).toBeDefined();
    expect(
      separate.getByText(
        'The track is split into 4 stems, to mix on its page and to download on plans with downloads. The original stays as it is.',
      ),
    ).toBeDefined();
    expect(separate.getByText('Vocals, drums, bass and other.')).toBeDefined();
    expect(posts()).toEqual([]);
  });

  it('chooses 6 stems with the arrow keys and asks for that set', async () => {
    const { user, posts, onClose, queryClient } = renderDialog({
      routes: { 'POST /api/generation/neon/stems': jsonResponse({ status: 'processing' }, 202) },
    });
    const separate = await dialog();
    const four = separate.getByRole('radio', { name: '4 stems' });
    expect(four.getAttribute('aria-checked')).toBe('true');
    four.focus();
    await user.keyboard('{ArrowRight>}{/ArrowRight}');
    expect(separate.getByRole('radio', { name: '6 stems' }).getAttribute('aria-checked')).toBe('true');
    expect(separate.getByText('Vocals, drums, bass, guitar, piano and other.')).toBeDefined();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');

    await user.click(separate.getByRole('button', { name: 'Separate' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()).toEqual([{ set: '6' }]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: trackStemsQueryKey('neon') });
    const toast = await findToast();
    expect(toast.textContent).toContain('Separating stems');
    expect(toast.textContent).toContain('"Neon Nights" is being taken apart');
  });

  it('offers a Free user only 4 stems: 6 is shown, cannot be chosen, and names the plans that have it', async () => {
    const { user, posts, onClose } = renderDialog({
      user: makeUser({ generationsUsedThisMonth: 1 }),
      routes: { 'POST /api/generation/neon/stems': jsonResponse({ status: 'processing' }, 202) },
    });
    const separate = await dialog();
    const reason = await separate.findByText(
      '6 stems are for the Basic and Premium plans. Upgrade to separate this track.',
      { exact: false },
    );
    const four = separate.getByRole('radio', { name: '4 stems' });
    const six = separate.getByRole('radio', { name: '6 stems' });
    expect(four.getAttribute('aria-checked')).toBe('true');
    expect((six as HTMLButtonElement).disabled).toBe(true);
    // Screen readers hear the reason with the choice.
    expect(separate.getByRole('radiogroup', { name: 'Stems' }).getAttribute('aria-describedby')).toContain(
      reason.id,
    );
    expect(within(reason).getByRole('link', { name: 'See Plans' }).getAttribute('href')).toBe('/pricing');

    // Neither a click nor the arrow keys choose it.
    await user.click(six);
    four.focus();
    await user.keyboard('{ArrowRight>}{/ArrowRight}');
    expect(four.getAttribute('aria-checked')).toBe('true');
    expect(six.getAttribute('aria-checked')).toBe('false');
    expect(separate.getByText('Vocals, drums, bass and other.')).toBeDefined();

    await user.click(separate.getByRole('button', { name: 'Separate' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()).toEqual([{ set: '4' }]);
  });

  it('starts on a set the plan has, even when the track was last separated into one it lacks', async () => {
    renderDialog({
      user: makeUser({ generationsUsedThisMonth: 1 }),
      stems: { status: 'failed', set: '6', stems: [] },
    });
    const separate = await dialog();
    await waitFor(() =>
      expect(separate.getByRole('radio', { name: '4 stems' }).getAttribute('aria-checked')).toBe('true'),
    );
    expect(separate.getByRole('button', { name: 'Separate' })).toBeDefined();
  });

  it("shows the server's refusal and stays open (an answer that does not say the plan's sets)", async () => {
    const message = '6 stems are for the Basic and Premium plans. Upgrade to separate this track.';
    const older = makeUser({ generationsUsedThisMonth: 1 });
    const { stems: _unsaid, ...entitlements } = older.entitlements;
    const { user, onClose } = renderDialog({
      user: { ...older, entitlements: entitlements as typeof older.entitlements },
      routes: { 'POST /api/generation/neon/stems': jsonResponse({ message }, 403) },
    });
    const separate = await dialog();
    await user.click(separate.getByRole('radio', { name: '6 stems' }));
    await user.click(separate.getByRole('button', { name: 'Separate' }));

    expect((await separate.findByRole('alert')).textContent).toBe(message);
    expect(onClose).not.toHaveBeenCalled();
    expect(separate.getByRole('radio', { name: '6 stems' }).getAttribute('aria-checked')).toBe('true');
    expect((await findToast()).textContent).toContain(message);
  });

  it('with none of the week’s left, says so and offers the plans instead', async () => {
    const { posts } = renderDialog({ user: makeUser({ generationsUsedThisMonth: 5 }) });
    const separate = await dialog();
    expect(
      await separate.findByText(
        'Uses 1 of your 5 generations this week. You have none left: your count starts again on Monday, January 8.',
      ),
    ).toBeDefined();
    expect(separate.queryByRole('button', { name: 'Separate' })).toBeNull();
    // The footer's See Plans, after the one beside the 6 stems the Free plan lacks.
    expect(separate.getAllByRole('link', { name: 'See Plans' }).map((a) => a.getAttribute('href'))).toEqual([
      '/pricing',
      '/pricing',
    ]);
    expect(posts()).toEqual([]);
  });

  it('says a set the track has, or that is being made, is there already, with no cost and nothing to press', async () => {
    const { user } = renderDialog({
      stems: { status: 'ready', set: '4', stems: [] },
    });
    const separate = await dialog();
    expect(
      await separate.findByText('This track has these stems already: they are under its player.'),
    ).toBeDefined();
    expect(separate.queryByText(/Uses 1 of your/)).toBeNull();
    expect(separate.queryByRole('button', { name: 'Separate' })).toBeNull();

    // Another set is another separation, at its cost.
    await user.click(separate.getByRole('radio', { name: '6 stems' }));
    expect(await separate.findByText(/Uses 1 of your 30 generations/)).toBeDefined();
    expect(separate.getByRole('button', { name: 'Separate' })).toBeDefined();
  });

  it('a plan that separates into no set offers the plans in place of the action, on the page and in the menu', async () => {
    const noStems = makeUser({
      entitlements: {
        ...makeUser().entitlements,
        stems: { sets: [], plans: { '4': ['Basic', 'Premium'], '6': ['Premium'] } },
      },
    });
    mockFetch({ 'GET /api/auth/user': jsonResponse(noStems) });
    const page = renderWithProviders(<StudioActions track={track} />);
    const upgrade = await screen.findByRole('link', { name: 'Upgrade for Stems' });
    expect(upgrade.getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('button', { name: 'Separate stems' })).toBeNull();
    page.unmount();

    const { user } = renderWithProviders(<StudioMenu track={track} />);
    await user.click(screen.getByRole('button', { name: 'More' }));
    const item = await screen.findByRole('menuitem', { name: 'Upgrade for Stems' });
    expect(item.getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('menuitem', { name: 'Separate stems' })).toBeNull();
  });

  it('offers nothing for stems when no plan has them', async () => {
    const never = makeUser({
      entitlements: { ...makeUser().entitlements, stems: { sets: [], plans: { '4': [], '6': [] } } },
    });
    mockFetch({ 'GET /api/auth/user': jsonResponse(never) });
    renderWithProviders(<StudioActions track={track} />);
    expect(await screen.findByRole('button', { name: 'Extend' })).toBeDefined();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Separate stems' })).toBeNull());
    expect(screen.queryByRole('link', { name: 'Upgrade for Stems' })).toBeNull();
  });

  it('gives focus back to Separate stems when the dialog closes', async () => {
    mockFetch({
      'GET /api/auth/user': jsonResponse(makeSubscriber()),
      'GET /api/track/neon/stems': jsonResponse({ status: 'none', stems: [] }),
    });
    const { user } = renderWithProviders(<StudioActions track={track} />);
    const separate = await screen.findByRole('button', { name: 'Separate stems' });
    await user.click(separate);
    await user.click(await (await dialog()).findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(separate));
  });

  it('opens from the library card’s More menu', async () => {
    mockFetch({
      'GET /api/auth/user': jsonResponse(makeSubscriber()),
      'GET /api/track/neon/stems': jsonResponse({ status: 'none', stems: [] }),
    });
    const { user } = renderWithProviders(<StudioMenu track={track} />);
    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Separate stems' }));
    expect(await screen.findByRole('alertdialog', { name: 'Separate stems' })).toBeDefined();
  });
});
