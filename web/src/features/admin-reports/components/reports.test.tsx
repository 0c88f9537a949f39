import { screen, waitFor, within } from '@testing-library/react';
import type { AdminReport } from '@tunesmith/shared/community';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const report = (overrides: Partial<AdminReport> = {}): AdminReport => ({
  id: 'r1',
  subject: { kind: 'track', id: 't1', label: 'Night Drive' },
  ownerId: 'owner-1',
  reporterId: 'reporter-1',
  reason: 'spam',
  details: 'Links to a shop',
  status: 'open',
  createdAt: '2026-11-20T10:00:00.000Z',
  resolvedAt: null,
  resolvedBy: null,
  ...overrides,
});

function renderReports(routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({
    'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
    'GET /api/admin/reports': jsonResponse({
      reports: [
        report(),
        report({
          id: 'r2',
          subject: { kind: 'profile', id: 'owner-2', label: 'nightowl' },
          reason: 'impersonation',
          details: null,
        }),
        report({
          id: 'r3',
          subject: { kind: 'track', id: 't3', label: 'Gone' },
          status: 'hidden',
          resolvedAt: '2026-11-21T10:00:00.000Z',
          resolvedBy: 'root',
        }),
      ],
    }),
    ...routes,
  });
  const bodies = (method: string, path: string) =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u) === path && init?.method === method)
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { ...renderApp('/admin/reports'), fetchMock, bodies };
}

const card = async (name: string) => within(await screen.findByRole('article', { name }));

describe('Reports', () => {
  it('lists open reports first with subject, reason, details, reporter and date, then the resolved ones', async () => {
    renderReports();
    const track = await card('Track "Night Drive"');
    expect(track.getByText(/Spam or misleading · reported/)).toBeDefined();
    expect(track.getByText('Links to a shop')).toBeDefined();
    expect(track.getByText('reporter-1')).toBeDefined();
    expect(track.getByText('Open')).toBeDefined();
    expect(track.getByRole('button', { name: 'Hide track' })).toBeDefined();
    expect(track.getByRole('button', { name: 'Dismiss' })).toBeDefined();
    expect(track.getByRole('button', { name: 'Suspend user' })).toBeDefined();
    expect((await card('Profile @nightowl')).getByRole('button', { name: 'Hide profile' })).toBeDefined();
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings).toEqual(['Track "Night Drive"', 'Profile @nightowl', 'Track "Gone"']);
    expect(screen.getByText('2 open')).toBeDefined();
    const gone = await card('Track "Gone"');
    expect(gone.queryByRole('button', { name: 'Hide track' })).toBeNull();
    expect(gone.getByText(/by root/)).toBeDefined();
    expect(gone.getByRole('button', { name: 'Show track again' })).toBeDefined();
  });

  it('hides a reported track and reads the list again', async () => {
    const { user, bodies, fetchMock } = renderReports({
      'POST /api/admin/reports/r1': jsonResponse(
        report({ status: 'hidden', resolvedAt: '2026-11-22T10:00:00.000Z', resolvedBy: 'root' }),
      ),
    });
    await user.click((await card('Track "Night Drive"')).getByRole('button', { name: 'Hide track' }));
    expect((await findToast()).textContent).toContain('Track "Night Drive" is hidden.');
    expect(bodies('POST', '/api/admin/reports/r1')).toEqual([{ action: 'hide' }]);
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([u]) => String(u) === '/api/admin/reports')).toHaveLength(2),
    );
  });

  it('asks before suspending, and says why when it fails', async () => {
    const { user, bodies } = renderReports({
      'POST /api/admin/reports/r2': jsonResponse({ message: 'This report has already been resolved.' }, 409),
    });
    await user.click((await card('Profile @nightowl')).getByRole('button', { name: 'Suspend user' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Suspend this user?' }));
    expect(bodies('POST', '/api/admin/reports/r2')).toEqual([]);
    await user.click(dialog.getByRole('button', { name: 'Suspend User' }));
    expect((await findToast()).textContent).toContain('This report has already been resolved.');
    expect(bodies('POST', '/api/admin/reports/r2')).toEqual([{ action: 'suspend' }]);
  });

  it('restores a hidden track from its resolved report', async () => {
    const { user, bodies } = renderReports({
      'POST /api/admin/reports/r3': jsonResponse(report({ id: 'r3', status: 'restored' })),
    });
    await user.click((await card('Track "Gone"')).getByRole('button', { name: 'Show track again' }));
    expect((await findToast()).textContent).toContain('Track "Gone" is shown again.');
    expect(bodies('POST', '/api/admin/reports/r3')).toEqual([{ action: 'restore' }]);
  });

  it('shows the empty state', async () => {
    renderReports({ 'GET /api/admin/reports': jsonResponse({ reports: [] }) });
    expect(await screen.findByText('No open reports')).toBeDefined();
    expect(screen.getByText('0 open')).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Resolved' })).toBeNull();
  });
});
