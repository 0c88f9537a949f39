import { screen } from '@testing-library/react';
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
