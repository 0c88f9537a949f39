import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeSubscriber, makeTrack } from '@/testing/fixtures';
import { jsonResponse } from '@/testing/mock-fetch';
import { renderAppAs } from '@/testing/render';

/** The page's headings in document order, as [level, text]. */
function headings(): Array<[number, string]> {
  return Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((heading) => [
    Number(heading.tagName.slice(1)),
    heading.textContent?.trim() ?? '',
  ]);
}

/** Each heading is at most one level below the one before it. */
function skippedLevels(list: Array<[number, string]>): string[] {
  return list.flatMap(([level, text], index) => {
    const before = index === 0 ? 0 : (list[index - 1]?.[0] ?? 0);
    return level > before + 1 ? [`h${level} "${text}" after h${before}`] : [];
  });
}

describe('library page', () => {
  it('puts the track titles one level under the page heading', async () => {
    renderAppAs('/library', makeSubscriber(), {
      'GET /api/my-generations': jsonResponse([
        makeTrack({ id: 'neon', title: 'Neon Nights' }),
        makeTrack({ id: 'rain', title: 'Rainy Day' }),
      ]),
    });

    expect(await screen.findByRole('heading', { level: 2, name: 'Neon Nights' })).toBeDefined();
    expect(screen.getByRole('heading', { level: 1, name: 'My Music Library' })).toBeDefined();
    expect(screen.getByRole('heading', { level: 2, name: 'Rainy Day' })).toBeDefined();
    expect(skippedLevels(headings())).toEqual([]);
  });

  it('puts the empty state one level under the page heading', async () => {
    renderAppAs('/library', makeSubscriber(), { 'GET /api/my-generations': jsonResponse([]) });

    expect(await screen.findByRole('heading', { level: 2, name: 'No tracks yet' })).toBeDefined();
    expect(skippedLevels(headings())).toEqual([]);
  });
});

describe('library page: after a studio action', () => {
  const original = makeTrack({ id: 'neon', title: 'Neon Nights', createdAt: '2024-03-15T12:00:00.000Z' });
  const variation = makeTrack({
    id: 'var-1',
    title: 'Neon Nights',
    status: 'pending',
    audioUrl: null,
    parentId: 'neon',
    edit: { kind: 'variation' },
    createdAt: '2024-03-16T12:00:00.000Z',
  });

  async function makeVariation(user: ReturnType<typeof userEvent.setup>) {
    const card = within(await screen.findByRole('article', { name: 'Neon Nights' }));
    await user.click(await card.findByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make variation' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Make variation' }));
    await user.click(confirm.getByRole('button', { name: 'Make Variation' }));
  }

  it("puts focus on the new version's card, though the card it came from moved into a group", async () => {
    let made = false;
    renderAppAs('/library', makeSubscriber(), {
      'GET /api/my-generations': () => jsonResponse(made ? [variation, original] : [original]),
      'POST /api/generation/neon/variation': () => {
        made = true;
        return jsonResponse({ generationId: 'var-1', track: variation }, 201);
      },
    });
    const user = userEvent.setup();

    await makeVariation(user);

    const versions = within(await screen.findByRole('list', { name: '1 version of Neon Nights' }));
    const newCard = versions.getByRole('article', { name: 'Neon Nights' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(newCard).getByRole('heading', { name: 'Neon Nights' })),
    );
    // It stays there: nothing moves it back to the page's start once the dialog's timers have run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(newCard.contains(document.activeElement)).toBe(true);
  });

  it('puts focus on the library heading when the filters hide the new version', async () => {
    let made = false;
    renderAppAs('/library', makeSubscriber(), {
      'GET /api/my-generations': () => jsonResponse(made ? [variation, original] : [original]),
      'POST /api/generation/neon/variation': () => {
        made = true;
        return jsonResponse({ generationId: 'var-1', track: variation }, 201);
      },
    });
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Status'), 'completed');

    await makeVariation(user);

    const heading = screen.getByRole('heading', { level: 1, name: 'My Music Library' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});

describe('library page: Liked', () => {
  it('lists the liked tracks in their own tab, liked by the user', async () => {
    const { user } = renderAppAs('/library', makeSubscriber(), {
      'GET /api/my-generations': jsonResponse([]),
      'GET /api/my-likes': jsonResponse({
        tracks: [makeTrack({ id: 'loved', title: 'Loved Song', likes: 1, likedByMe: true })],
        nextCursor: null,
      }),
    });

    await user.click(await screen.findByRole('tab', { name: 'Liked' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Liked tracks' })).toBeDefined();
    expect(await screen.findByRole('heading', { name: 'Loved Song' })).toBeDefined();
    expect(screen.getByRole('button', { name: /^Like Loved Song,/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('says so when nothing is liked yet and points to the gallery', async () => {
    renderAppAs('/library?tab=liked', makeSubscriber(), {
      'GET /api/my-generations': jsonResponse([]),
      'GET /api/my-likes': jsonResponse({ tracks: [], nextCursor: null }),
    });
    expect(
      await screen.findByText('No liked tracks yet. Like a track in the gallery and it appears here.'),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Explore the gallery' }).getAttribute('href')).toBe('/gallery');
  });
});
