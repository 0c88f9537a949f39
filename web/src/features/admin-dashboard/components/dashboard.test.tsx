import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

describe('Dashboard', () => {
  it('shows the six counters, the public share, the UTC day, quick links and recent activity', async () => {
    mockFetch({
      'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
      'GET /api/admin/dashboard/stats': jsonResponse({
        totalUsers: 12,
        totalGenerations: 40,
        publicTracks: 30,
        privateTracks: 10,
        newUsersToday: 2,
        generationsToday: 5,
        day: '2026-11-25',
        recentActivity: [
          {
            id: 'a1',
            at: '2026-11-25T09:00:00.000Z',
            actor: 'root',
            action: 'plan.create',
            target: 'p1',
            summary: 'Created plan Studio',
          },
        ],
      }),
    });
    renderApp('/admin');
    const value = async (label: string) => (await screen.findByText(label)).nextElementSibling?.textContent;
    await waitFor(async () => expect(await value('Total Users')).toBe('12'));
    expect(await value('Total Users')).toBe('12');
    expect(await value('Total Generations')).toBe('40');
    expect(await value('Public Tracks')).toBe('30');
    expect(await value('Private Tracks')).toBe('10');
    expect(await value('New Users Today')).toBe('2');
    expect(await value('Generations Today')).toBe('5');
    expect(screen.getByRole('img', { name: '75% public, 25% private' })).toBeDefined();
    expect(screen.getByText(/UTC day 2026-11-25/)).toBeDefined();
    expect(screen.getByRole('link', { name: /Manage Users/ }).getAttribute('href')).toBe('/admin/users');
    expect(
      within(screen.getByRole('list', { name: 'Recent admin activity' })).getByText('Created plan Studio'),
    ).toBeDefined();
  });

  it('shows this week by model: generations and provider spend, busiest first, with their total', async () => {
    mockFetch({
      'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
      'GET /api/admin/dashboard/stats': jsonResponse({
        totalUsers: 1,
        totalGenerations: 15,
        publicTracks: 15,
        privateTracks: 0,
        newUsersToday: 0,
        generationsToday: 0,
        day: '2026-11-25',
        recentActivity: [],
        models: [
          { id: 'minimax-music-2.5', name: 'MiniMax Music 2.5', generations: 3, spendUsd: 0.45 },
          { id: 'ace-step', name: 'ACE-Step', generations: 12, spendUsd: 0.144 },
        ],
      }),
    });
    renderApp('/admin');

    const table = await screen.findByRole('table', { name: 'This week by model' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Model', 'Generations', 'Provider spend'],
      ['ACE-Step', '12', '$0.14'],
      ['MiniMax Music 2.5', '3', '$0.45'],
      ['Total', '15', '$0.59'],
    ]);
    expect(
      screen.getByRole('link', { name: /On or off, default, cost and plans/ }).getAttribute('href'),
    ).toBe('/admin/models');
  });

  it('says when no model has made anything this week', async () => {
    mockFetch({
      'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
      'GET /api/admin/dashboard/stats': jsonResponse({
        totalUsers: 0,
        totalGenerations: 0,
        publicTracks: 0,
        privateTracks: 0,
        newUsersToday: 0,
        generationsToday: 0,
        day: '2026-11-25',
        recentActivity: [],
        models: [],
      }),
    });
    renderApp('/admin');

    expect(await screen.findByText('No generations this week.')).toBeDefined();
  });
});
