import { screen, within } from '@testing-library/react';
import type { AdminModels } from '@tunesmith/shared/model-settings';
import { DEFAULT_MODEL_ID, MUSIC_MODELS } from '@tunesmith/shared/models';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, type MockResponse, mockFetch } from '@/testing/mock-fetch';
import { findToast, renderApp } from '@/testing/render';

const plans = [
  { id: 'free', name: 'Free', paid: false },
  { id: 'basic', name: 'Basic', paid: true },
  { id: 'premium', name: 'Premium', paid: true },
];

/** `GET /api/admin/models` with the settings as the defaults make them, and some use this week. */
function adminModels(): AdminModels {
  const paidOnly = new Set(['minimax-music-2.5', 'stable-audio-2.5']);
  return {
    settings: {
      defaultModel: DEFAULT_MODEL_ID,
      models: Object.fromEntries(
        MUSIC_MODELS.map((m) => [
          m.id,
          {
            enabled: true,
            quotaCost: m.defaultQuotaCost,
            plans: plans.filter((p) => p.paid || !paidOnly.has(m.id)).map((p) => p.id),
          },
        ]),
      ),
    },
    models: MUSIC_MODELS.map((m) => ({
      id: m.id,
      name: m.name,
      vendor: m.vendor,
      bestFor: m.bestFor,
      endpoints: { ...m.endpoints },
      lyrics: m.lyrics,
      duration: m.duration ? { ...m.duration } : null,
      price: { ...m.price },
      termsUrl: m.termsUrl,
      defaultQuotaCost: m.defaultQuotaCost,
    })),
    plans,
    weekStart: '2026-11-23',
    usage: [
      { id: 'ace-step', name: 'ACE-Step', generations: 12, spendUsd: 0.144 },
      { id: 'minimax-music-2.5', name: 'MiniMax Music 2.5', generations: 1, spendUsd: 0.15 },
    ],
  };
}

function renderModels(routes: Record<string, MockResponse> = {}) {
  const fetchMock = mockFetch({
    'GET /api/admin/user': jsonResponse({ username: 'root', role: 'admin' }),
    'GET /api/admin/models': jsonResponse(adminModels()),
    ...routes,
  });
  const puts = () =>
    fetchMock.mock.calls
      .filter(([u, init]) => String(u) === '/api/admin/models' && init?.method === 'PUT')
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { ...renderApp('/admin/models'), fetchMock, puts };
}

const model = async (name: string) => within(await screen.findByRole('article', { name }));

afterEach(() => vi.unstubAllGlobals());

describe('the admin Models page', () => {
  it('shows each model on, its cost, the plans that offer it, its price and this week’s use, the default chosen', async () => {
    renderModels();

    const ace = await model('ACE-Step');
    expect(ace.getByRole('switch', { name: 'On (ACE-Step)' }).getAttribute('aria-checked')).toBe('true');
    expect(ace.getByLabelText('Quota units per generation')).toHaveProperty('value', '1');
    expect(ace.getByText('12 generations, $0.14')).toBeDefined();
    expect(ace.getByText('$0.0002 per second')).toBeDefined();
    const premiumOnly = await model('MiniMax Music 2.5');
    expect(premiumOnly.getByLabelText('Quota units per generation')).toHaveProperty('value', '3');
    expect(premiumOnly.getByRole('checkbox', { name: 'Free' })).toHaveProperty('checked', false);
    expect(premiumOnly.getByRole('checkbox', { name: 'Premium' })).toHaveProperty('checked', true);
    expect(premiumOnly.getByText('1 generation, $0.15')).toBeDefined();
    expect((await model('CassetteAI')).getByText('No generations')).toBeDefined();
    const defaults = screen.getByRole('radiogroup', { name: 'Default model' });
    expect(within(defaults).getByRole('radio', { name: 'ACE-Step' }).getAttribute('aria-checked')).toBe(
      'true',
    );
  });

  it('saves the whole settings document and says so', async () => {
    const { user, puts } = renderModels({ 'PUT /api/admin/models': jsonResponse(adminModels()) });
    const cassette = await model('CassetteAI');
    await user.click(cassette.getByRole('switch', { name: 'On (CassetteAI)' }));
    const premiumOnly = await model('MiniMax Music 2.5');
    const cost = premiumOnly.getByLabelText('Quota units per generation');
    await user.clear(cost);
    await user.type(cost, '5');
    await user.click(premiumOnly.getByRole('checkbox', { name: 'Free' }));
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'Default model' })).getByRole('radio', {
        name: 'MiniMax Music 2.0',
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect((await findToast()).textContent).toContain('Models Saved');
    const [body] = puts();
    expect(body.defaultModel).toBe('minimax-music-2');
    expect(body.models.cassetteai).toEqual({
      enabled: false,
      quotaCost: 1,
      plans: ['free', 'basic', 'premium'],
    });
    // The plan ticked joins in the plans' order.
    expect(body.models['minimax-music-2.5']).toEqual({
      enabled: true,
      quotaCost: 5,
      plans: ['free', 'basic', 'premium'],
    });
    expect(Object.keys(body.models)).toEqual(MUSIC_MODELS.map((m) => m.id));
  });

  it('refuses quota units outside 1 to 10 beside the field, sending nothing', async () => {
    const { user, puts } = renderModels();
    const ace = await model('ACE-Step');
    const cost = ace.getByLabelText('Quota units per generation');
    await user.clear(cost);
    await user.type(cost, '11');

    await user.click(screen.getByRole('button', { name: 'Save' }));

    const message = await ace.findByText('Quota units must be a whole number from 1 to 10.');
    expect(cost.getAttribute('aria-invalid')).toBe('true');
    expect(cost.getAttribute('aria-describedby')).toBe(message.id);
    expect(puts()).toEqual([]);
  });

  it('refuses a default that is off or missing from a plan, sending nothing', async () => {
    const { user, puts } = renderModels();
    const ace = await model('ACE-Step');
    await user.click(ace.getByRole('switch', { name: 'On (ACE-Step)' }));

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('The default model must be on: turn ACE-Step on or choose another default.'),
    ).toBeDefined();
    await user.click(ace.getByRole('switch', { name: 'On (ACE-Step)' }));
    await user.click(ace.getByRole('checkbox', { name: 'Free' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('The default model must be offered on every plan: ACE-Step is not in Free.'),
    ).toBeDefined();
    expect(puts()).toEqual([]);
  });

  it('shows the server’s refusal', async () => {
    const { user } = renderModels({
      'PUT /api/admin/models': jsonResponse(
        { message: 'Stable Audio 2.5 names a plan that does not exist: gold.' },
        400,
      ),
    });
    await model('ACE-Step');

    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Stable Audio 2.5 names a plan that does not exist: gold.');
    expect((await findToast()).textContent).toContain(
      'Stable Audio 2.5 names a plan that does not exist: gold.',
    );
  });

  it('says when the models cannot be loaded, and loads them again', async () => {
    let calls = 0;
    const { user } = renderModels({
      'GET /api/admin/models': () =>
        ++calls === 1 ? jsonResponse({ message: 'boom' }, 500) : jsonResponse(adminModels()),
    });

    await user.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(await model('ACE-Step')).toBeDefined();
  });
});
