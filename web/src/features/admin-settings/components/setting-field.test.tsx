import { screen, within } from '@testing-library/react';
import { type AdminSetting, adminMessages } from '@tunesmith/shared/admin';
import { STRIPE_WEBHOOK_EVENTS } from '@tunesmith/shared/billing';
import { describe, expect, it } from 'vitest';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const setting = (
  key: AdminSetting['key'],
  value: string,
  overrides: Partial<AdminSetting> = {},
): AdminSetting => ({
  key,
  value,
  secret: false,
  isSet: value !== '',
  description: `${key} description`,
  type: 'text',
  category: 'general',
  updatedAt: null,
  ...overrides,
});

const list = [
  setting('site_name', 'Tunesmith'),
  setting('site_description', 'Music'),
  setting('support_email', 'support@tunesmith.example'),
  setting('contact_email', 'hello@tunesmith.example'),
  setting('stripe_publishable_key', ''),
  setting('stripe_secret_key', '', { secret: true, isSet: true, type: 'secret', category: 'stripe' }),
  setting('stripe_webhook_secret', '', { secret: true, isSet: false, type: 'secret', category: 'stripe' }),
  setting('fal_api_key', '', { secret: true, isSet: false, type: 'secret', category: 'music' }),
];

function renderSettings(tab: string, routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({
    'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
    'GET /api/admin/settings': jsonResponse(list),
    ...routes,
  });
  const bodies = () =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u) === '/api/admin/settings' && init?.method === 'PUT')
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { ...renderApp(`/admin/settings?tab=${tab}`), bodies };
}

describe('Site Settings', () => {
  it('saves a general setting on its own and checks email formats', async () => {
    const { user, bodies } = renderSettings('general', {
      'PUT /api/admin/settings': jsonResponse(setting('support_email', 'help@tunesmith.example')),
    });
    const form = within(await screen.findByRole('form', { name: 'Support Email' }));
    await user.clear(form.getByLabelText('Support Email'));
    await user.type(form.getByLabelText('Support Email'), 'nope');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Invalid email address')).toBeDefined();
    await user.clear(form.getByLabelText('Support Email'));
    await user.type(form.getByLabelText('Support Email'), 'help@tunesmith.example');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(within(await findToast()).getByText('Setting Saved')).toBeDefined();
    expect(bodies()).toEqual([{ key: 'support_email', value: 'help@tunesmith.example' }]);
  });

  it('never prefills a secret, says whether it is set, and masks what is typed', async () => {
    const { user, bodies } = renderSettings('stripe', {
      'PUT /api/admin/settings': () => new Response('', { status: 500 }),
    });
    const form = within(await screen.findByRole('form', { name: 'Stripe Secret Key' }));
    const input = form.getByLabelText('Stripe Secret Key') as HTMLInputElement;
    expect(input.value).toBe('');
    expect(input.type).toBe('password');
    expect(form.getByText(/^Set/)).toBeDefined();
    expect(
      within(screen.getByRole('form', { name: 'Stripe Webhook Secret' })).getByText(/^Not set/),
    ).toBeDefined();
    await user.type(input, 'sk_test_abc');
    await user.click(form.getByRole('button', { name: 'Save' }));
    const toast = within(await findToast());
    expect(toast.getByText('Error')).toBeDefined();
    expect(toast.getByText('Failed to update setting')).toBeDefined();
    expect(bodies()).toEqual([{ key: 'stripe_secret_key', value: 'sk_test_abc' }]);
  });

  it('shows the webhook address to copy and every event the webhook handles, as docs/deploy.md lists them', async () => {
    renderSettings('webhooks');
    const address = (await screen.findByLabelText('Webhook Endpoint')) as HTMLInputElement;
    expect(address.value).toBe(`${window.location.origin}/api/webhooks/stripe`);
    expect(address.readOnly).toBe(true);
    const events = within(screen.getByRole('list', { name: 'Events to send' }));
    expect(events.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      ...STRIPE_WEBHOOK_EVENTS,
    ]);
    expect(events.getByText('checkout.session.completed')).toBeDefined();
  });

  it('says beside the field, and in a toast, why Stripe refused a secret key', async () => {
    const { user, bodies } = renderSettings('stripe', {
      'PUT /api/admin/settings': jsonResponse(
        { message: adminMessages.stripeKeyRefused, field: 'value' },
        400,
      ),
    });
    const form = within(await screen.findByRole('form', { name: 'Stripe Secret Key' }));
    const input = form.getByLabelText('Stripe Secret Key');

    await user.type(input, 'pk_test_abc');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(adminMessages.secretKeyFormat)).toBeDefined();
    expect(bodies()).toEqual([]);

    await user.clear(input);
    await user.type(input, 'sk_test_madeup');
    await user.click(form.getByRole('button', { name: 'Save' }));

    expect(within(await findToast()).getByText(adminMessages.stripeKeyRefused)).toBeDefined();
    expect(form.getByText(adminMessages.stripeKeyRefused)).toBeDefined();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(bodies()).toEqual([{ key: 'stripe_secret_key', value: 'sk_test_madeup' }]);
  });

  it('shows a saved Site Name in the admin area at once', async () => {
    const { user } = renderSettings('general', {
      'PUT /api/admin/settings': jsonResponse(setting('site_name', 'Harbour Radio')),
    });
    const form = within(await screen.findByRole('form', { name: 'Site Name' }));
    expect(screen.getAllByText('Tunesmith Admin').length).toBeGreaterThan(0);

    await user.clear(form.getByLabelText('Site Name'));
    await user.type(form.getByLabelText('Site Name'), 'Harbour Radio');
    await user.click(form.getByRole('button', { name: 'Save' }));

    expect((await screen.findAllByText('Harbour Radio Admin')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Tunesmith Admin')).toBeNull();
  });
});
