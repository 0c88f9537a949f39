import { screen, waitFor, within } from '@testing-library/react';
import { AUDIT_RETENTION_DAYS, TABLE_RECOVERY_DAYS } from '@tunesmith/shared/data-retention';
import { describe, expect, it } from 'vitest';
import { anonymous, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';

function renderAt(path: string) {
  mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/public-tracks': jsonResponse([]) });
  return renderApp(path);
}

describe('terms of service', () => {
  it('states every plan quota and price', async () => {
    renderAt('/terms');

    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeDefined();
    const row = (name: string) =>
      within(screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement);
    expect(row('Free').getByText('5 songs a week')).toBeDefined();
    expect(row('Free').getByText(/Public sharing only/)).toBeDefined();
    expect(row('Basic').getByText('$2.08/week, $9/month or $90/year')).toBeDefined();
    expect(row('Basic').getByText('30 songs a week')).toBeDefined();
    expect(row('Basic').getByText(/Private or public/)).toBeDefined();
    expect(row('Premium').getByText('$4.39/week, $19/month or $190/year')).toBeDefined();
    expect(row('Premium').getByText('100 songs a week')).toBeDefined();
    expect(row('Premium').getByText(/Priority generation and a commercial license/)).toBeDefined();
    expect(document.title).toBe('Terms of Service | Tunesmith');
  });

  it('states the license of each plan in a section the license links reach, fixed when the track is made', async () => {
    renderAt('/terms#license');

    const heading = await screen.findByRole('heading', { level: 2, name: 'License of your tracks' });
    expect(heading.id).toBe('license');
    const section: string[] = [];
    for (
      let node = heading.nextElementSibling;
      node && node.tagName !== 'H2';
      node = node.nextElementSibling
    ) {
      section.push(node.textContent ?? '');
    }
    const text = section.join('\n');
    expect(text).toContain('Free and Basic: personal, non-commercial use only.');
    expect(text).toMatch(/Premium: commercial use is allowed/);
    expect(text).toMatch(/does not change afterwards: upgrading, downgrading or\s+cancelling later/);
    // The content section's promise points here.
    expect(screen.getByRole('link', { name: 'License of your tracks' }).getAttribute('href')).toBe(
      '#license',
    );
  });

  it('keeps the plans table in a named region that Tab reaches, to scroll it on a narrow screen', async () => {
    const { user } = renderAt('/terms');
    const region = await screen.findByRole('region', { name: 'Plans, prices and weekly quotas' });
    expect(within(region).getByRole('table', { name: 'Plans, prices and weekly quotas' })).toBeDefined();

    // Tab from the top of the page, past the header's links, until focus stops on the region.
    for (let presses = 0; presses < 30 && document.activeElement !== region; presses++) await user.tab();

    expect(document.activeElement).toBe(region);
  });
});

describe('privacy policy', () => {
  it('shows the policy', async () => {
    renderAt('/privacy');

    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
    expect(screen.getByRole('heading', { level: 2, name: 'Cookies' })).toBeDefined();
    expect(document.title).toBe('Privacy Policy | Tunesmith');
  });

  it('says how long backups keep deleted data, from the period the table is set to, and that audio keeps no copies', async () => {
    renderAt('/privacy');

    const heading = await screen.findByRole('heading', { level: 2, name: 'How long we keep it' });
    const section: string[] = [];
    for (
      let node = heading.nextElementSibling;
      node && node.tagName !== 'H2';
      node = node.nextElementSibling
    ) {
      section.push(node.textContent ?? '');
    }
    const text = section.join('\n').replace(/\s+/g, ' ');
    expect(TABLE_RECOVERY_DAYS).toBe(35);
    expect(text).toContain('these backups reach back 35 days');
    expect(AUDIT_RETENTION_DAYS).toBe(400);
    expect(text).toContain("with its email address, stays in our administrators' audit trail for 400 days");
    expect(text).toContain('stay in them for up to 35 days and are then gone for good');
    expect(text).toContain('are deleted from our storage at once, and we keep no earlier copies of them');
  });
});

describe('back button', () => {
  it('goes home when the page was opened directly', async () => {
    const { router, user } = renderAt('/privacy');

    await user.click(await screen.findByRole('button', { name: 'Back' }));

    await waitFor(() => expect(router.location.pathname).toBe('/'));
  });

  it('goes back to the previous page', async () => {
    const { router, user } = renderAt('/pricing');
    await screen.findByRole('heading', { level: 1, name: 'Choose Your Plan' });
    await router.navigate('/terms');

    await user.click(await screen.findByRole('button', { name: 'Back' }));

    await waitFor(() => expect(router.location.pathname).toBe('/pricing'));
  });
});
