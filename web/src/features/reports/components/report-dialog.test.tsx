import { screen, waitFor, within } from '@testing-library/react';
import type { Track } from '@tunesmith/shared/tracks';
import { describe, expect, it } from 'vitest';
import { makeSubscriber, makeTrack } from '@/testing/fixtures';
import { anonymous, jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp, renderWithProviders } from '@/testing/render';
import { ReportProfileButton } from './report-profile-button';

function renderTrack(
  overrides: Partial<Track> = {},
  { mine = ['other'], signedIn = true }: { mine?: string[]; signedIn?: boolean } = {},
  routes: Record<string, MockResponse> = {},
) {
  const fetchMock = mockFetch({
    'GET /api/auth/user': signedIn ? jsonResponse(makeSubscriber()) : anonymous(),
    'GET /api/track/abc': jsonResponse(makeTrack({ id: 'abc', title: 'Neon Nights', ...overrides })),
    'GET /api/my-generations': jsonResponse(mine.map((id) => makeTrack({ id }))),
    ...routes,
  });
  const bodies = (path: string) =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u) === path && init?.method === 'POST')
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { ...renderApp('/track/abc'), fetchMock, bodies };
}

async function openDialog(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'More' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Report track' }));
  return within(await screen.findByRole('dialog', { name: 'Report "Neon Nights"' }));
}

describe('reporting a track from its page', () => {
  it('sends the chosen reason and details, thanks the reporter and closes', async () => {
    const { user, bodies } = renderTrack(
      {},
      {},
      {
        'POST /api/track/abc/report': jsonResponse({ reported: true }, 201),
      },
    );
    const dialog = await openDialog(user);
    await user.click(dialog.getByRole('radio', { name: 'Copyright infringement' }));
    await user.type(dialog.getByLabelText('Details (optional)'), '  My song  ');
    await user.click(dialog.getByRole('button', { name: 'Send Report' }));

    expect((await findToast()).textContent).toContain('An administrator will look at your report.');
    expect(bodies('/api/track/abc/report')).toEqual([{ reason: 'copyright', details: 'My song' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks for a reason before sending, and shows what the server refused', async () => {
    const { user, bodies } = renderTrack(
      {},
      {},
      {
        'POST /api/track/abc/report': jsonResponse(
          { message: 'You have sent many reports in a short time. Try again in an hour.' },
          429,
        ),
      },
    );
    const dialog = await openDialog(user);
    await user.click(dialog.getByRole('button', { name: 'Send Report' }));
    expect(await dialog.findByText('Choose a reason.')).toBeDefined();
    expect(bodies('/api/track/abc/report')).toEqual([]);

    await user.click(dialog.getByRole('radio', { name: 'Spam or misleading' }));
    await user.click(dialog.getByRole('button', { name: 'Send Report' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'You have sent many reports in a short time. Try again in an hour.',
    );
    expect(screen.getByRole('dialog')).toBeDefined();
  });

  it('offers no report on one’s own track', async () => {
    renderTrack({}, { mine: ['abc'] });
    await screen.findByRole('button', { name: 'Extend' });
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
  });

  it('offers no report to a visitor', async () => {
    renderTrack({}, { signedIn: false });
    await screen.findByRole('heading', { level: 1, name: 'Neon Nights' });
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
  });
});

describe('a hidden track on its owner’s page', () => {
  it('tells the owner it was hidden after a report', async () => {
    renderTrack({ hidden: true }, { mine: ['abc'] });
    expect((await screen.findByText(/This track was hidden after a report/)).getAttribute('role')).toBe(
      'status',
    );
  });

  it('says nothing of the kind on a track that is not hidden', async () => {
    renderTrack({}, { mine: ['abc'] });
    await screen.findByRole('heading', { level: 1, name: 'Neon Nights' });
    expect(screen.queryByText(/hidden after a report/)).toBeNull();
  });
});

describe('reporting a profile', () => {
  it('sends the report to the creator’s handle', async () => {
    const fetchMock = mockFetch({
      'GET /api/auth/user': jsonResponse(makeSubscriber()),
      'POST /api/creators/nightowl/report': jsonResponse({ reported: true }, 201),
    });
    const { user } = renderWithProviders(<ReportProfileButton handle="nightowl" displayName="Night Owl" />);
    await user.click(screen.getByRole('button', { name: 'Report profile' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Report Night Owl (@nightowl)' }));
    await user.click(dialog.getByRole('radio', { name: 'Impersonation' }));
    await user.click(dialog.getByRole('button', { name: 'Send Report' }));
    expect((await findToast()).textContent).toContain('An administrator will look at your report.');
    const sent = fetchMock.mock.calls.filter(([u]) => String(u) === '/api/creators/nightowl/report');
    expect(sent.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ reason: 'impersonation' }]);
  });
});
