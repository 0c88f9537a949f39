import { screen, waitFor, within } from '@testing-library/react';
import { type ApiKeyView, developerMessages } from '@tunesmith/shared/developer-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { deferredResponse, jsonResponse, type MockResponse } from '@/testing/mock-fetch';
import { findToast, renderAppAs } from '@/testing/render';

const fullKey = 'ts_test_4cQmY2bT9xVnR7sLp0aKdWj3hFzE8uGi';

const key = (overrides: Partial<ApiKeyView> = {}): ApiKeyView => ({
  id: 'key-1',
  name: 'Discord bot',
  prefix: 'ts_test_abcd',
  scopes: ['generate', 'read'],
  createdAt: '2026-03-04T10:00:00.000Z',
  lastUsedAt: null,
  ...overrides,
});

/** The profile with the API Keys card; the server holds `keys` and answers the key calls from them. */
async function renderKeys(initial: ApiKeyView[] = [], routes: Record<string, MockResponse> = {}) {
  const server = { keys: [...initial] };
  const rendered = renderAppAs('/profile', makeUser(), {
    'GET /api/user/api-keys': () => jsonResponse({ keys: server.keys }),
    'GET /api/user/webhooks': () => jsonResponse({ endpoints: [] }),
    'POST /api/user/api-keys': async (request) => {
      const body = (await request.json()) as { name: string; scopes: ApiKeyView['scopes'] };
      const made = key({ id: 'key-new', name: body.name, scopes: body.scopes, prefix: fullKey.slice(0, 12) });
      server.keys = [made, ...server.keys];
      return jsonResponse({ ...made, key: fullKey }, 201);
    },
    ...routes,
  });
  const card = within(await screen.findByRole('region', { name: 'API Keys' }));
  const bodies = () =>
    rendered.calls('POST', '/api/user/api-keys').map(([, init]) => JSON.parse(String(init?.body)) as unknown);
  return { ...rendered, server, card, bodies };
}

afterEach(() => vi.restoreAllMocks());

describe('Profile → Developers: API keys', () => {
  it('links to the API documentation', async () => {
    await renderKeys();
    const section = within(screen.getByRole('region', { name: 'Developers' }));
    expect(section.getByRole('link', { name: 'Read the API documentation' }).getAttribute('href')).toBe(
      '/developers',
    );
  });

  it('lists each key with its name, prefix, scopes, when it was made and last used', async () => {
    const { card } = await renderKeys([
      key(),
      key({
        id: 'key-2',
        name: 'Pipeline',
        prefix: 'ts_test_wxyz',
        scopes: ['read'],
        lastUsedAt: '2026-03-06T08:00:00.000Z',
      }),
    ]);

    const bot = within(await card.findByRole('listitem', { name: 'Discord bot' }));
    expect(bot.getByText('ts_test_abcd…')).toBeDefined();
    expect(bot.getByText(/generate, read · Created Mar 4, 2026 · Never used/)).toBeDefined();
    const pipeline = within(card.getByRole('listitem', { name: 'Pipeline' }));
    expect(pipeline.getByText('ts_test_wxyz…')).toBeDefined();
    expect(pipeline.getByText(/^read · Created Mar 4, 2026 · Used Mar 6, 2026$/)).toBeDefined();
  });

  it('says when there are no keys yet', async () => {
    const { card } = await renderKeys();
    expect(await card.findByText('You have no API keys yet.')).toBeDefined();
    expect(card.queryByRole('list', { name: 'Your API keys' })).toBeNull();
  });

  it('shows loading, then a failure to load with a way to try again', async () => {
    let fail = true;
    const slow = deferredResponse(() =>
      fail ? jsonResponse({ message: 'Internal Server Error' }, 500) : jsonResponse({ keys: [key()] }),
    );
    const { card, user } = await renderKeys([], { 'GET /api/user/api-keys': slow.handler });

    expect(card.getByText('Loading your API keys')).toBeDefined();
    slow.respond();
    expect(await card.findByText('We could not load your API keys.')).toBeDefined();

    fail = false;
    await user.click(card.getByRole('button', { name: 'Try Again' }));
    expect(await card.findByRole('listitem', { name: 'Discord bot' })).toBeDefined();
  });

  it("shows the server's refusal to list keys, such as a plan without API access", async () => {
    const { card } = await renderKeys([], {
      'GET /api/user/api-keys': jsonResponse({ message: developerMessages.noApiAccess }, 403),
    });
    expect(await card.findByText(developerMessages.noApiAccess)).toBeDefined();
  });

  it('creates a key with both scopes ticked to begin with, and shows it once with a Copy button', async () => {
    const { card, user, bodies } = await renderKeys();
    await card.findByText('You have no API keys yet.');

    expect((card.getByRole('checkbox', { name: /generate/ }) as HTMLInputElement).checked).toBe(true);
    expect((card.getByRole('checkbox', { name: /read/ }) as HTMLInputElement).checked).toBe(true);
    await user.type(card.getByLabelText('Key name'), 'Discord bot');
    await user.click(card.getByRole('button', { name: 'Create Key' }));

    const dialog = within(await screen.findByRole('alertdialog', { name: 'Your new API key' }));
    expect(bodies()).toEqual([{ name: 'Discord bot', scopes: ['generate', 'read'] }]);
    expect((dialog.getByLabelText('API key') as HTMLInputElement).value).toBe(fullKey);
    expect(dialog.getByText(/You will not see this key again/)).toBeDefined();

    await user.click(dialog.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(fullKey);
    expect(dialog.getByRole('button', { name: 'Copied' })).toBeDefined();

    await user.click(dialog.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // The key is gone from the page for good: only its prefix is listed.
    expect(screen.queryByDisplayValue(fullKey)).toBeNull();
    expect(screen.queryByText(fullKey)).toBeNull();
    const listed = within(await card.findByRole('listitem', { name: 'Discord bot' }));
    expect(listed.getByText(`${fullKey.slice(0, 12)}…`)).toBeDefined();
    // The form is ready for another key.
    expect((card.getByLabelText('Key name') as HTMLInputElement).value).toBe('');
  });

  it('sends only the scopes left ticked', async () => {
    const { card, user, bodies } = await renderKeys();
    await user.type(card.getByLabelText('Key name'), 'Reader');
    await user.click(card.getByRole('checkbox', { name: /generate/ }));
    await user.click(card.getByRole('button', { name: 'Create Key' }));

    await screen.findByRole('alertdialog', { name: 'Your new API key' });
    expect(bodies()).toEqual([{ name: 'Reader', scopes: ['read'] }]);
  });

  it('says what is missing before sending: a name, a scope', async () => {
    const { card, user, bodies } = await renderKeys();
    await user.click(card.getByRole('checkbox', { name: /generate/ }));
    await user.click(card.getByRole('checkbox', { name: /read/ }));
    await user.click(card.getByRole('button', { name: 'Create Key' }));

    expect(await card.findByText(developerMessages.keyNameRequired)).toBeDefined();
    expect(card.getByText(developerMessages.scopesRequired)).toBeDefined();
    expect(card.getByLabelText('Key name').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(card.getByLabelText('Key name')));
    expect(bodies()).toEqual([]);
  });

  it("shows the server's 400 message at its field", async () => {
    const { card, user } = await renderKeys([], {
      'POST /api/user/api-keys': jsonResponse({ message: developerMessages.keyNameTooLong }, 400),
    });
    await user.type(card.getByLabelText('Key name'), 'A name the server refuses');
    await user.click(card.getByRole('button', { name: 'Create Key' }));

    const message = await card.findByText(developerMessages.keyNameTooLong);
    expect(card.getByLabelText('Key name').getAttribute('aria-describedby')).toBe(message.id);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows the 10-key limit and a plan refusal from the server', async () => {
    let answer = jsonResponse({ message: developerMessages.tooManyKeys }, 409);
    const { card, user } = await renderKeys([], { 'POST /api/user/api-keys': () => answer });
    await user.type(card.getByLabelText('Key name'), 'Eleventh');
    await user.click(card.getByRole('button', { name: 'Create Key' }));
    expect((await card.findByRole('alert')).textContent).toBe(developerMessages.tooManyKeys);

    answer = jsonResponse({ message: developerMessages.noApiAccess }, 403);
    await user.click(card.getByRole('button', { name: 'Create Key' }));
    await waitFor(() => expect(card.getByRole('alert').textContent).toBe(developerMessages.noApiAccess));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('revokes a key only once the confirmation is accepted', async () => {
    const { card, user, calls, server } = await renderKeys([key(), key({ id: 'key-2', name: 'Pipeline' })], {
      'DELETE /api/user/api-keys/key-1': () => {
        server.keys = server.keys.filter((k) => k.id !== 'key-1');
        return new Response(null, { status: 204 });
      },
    });
    await user.click(await card.findByRole('button', { name: 'Revoke Discord bot' }));

    let confirm = within(await screen.findByRole('alertdialog', { name: 'Revoke this API key?' }));
    expect(confirm.getByText(/stops working at once/)).toBeDefined();
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls('DELETE', '/api/user/api-keys/key-1')).toHaveLength(0);

    await user.click(card.getByRole('button', { name: 'Revoke Discord bot' }));
    confirm = within(await screen.findByRole('alertdialog', { name: 'Revoke this API key?' }));
    await user.click(confirm.getByRole('button', { name: 'Revoke Key' }));

    expect(within(await findToast()).getByText('Key revoked')).toBeDefined();
    await waitFor(() => expect(card.queryByRole('listitem', { name: 'Discord bot' })).toBeNull());
    expect(card.getByRole('listitem', { name: 'Pipeline' })).toBeDefined();
    expect(calls('DELETE', '/api/user/api-keys/key-1')).toHaveLength(1);
    // Focus lands on the list, not on the page's start.
    await waitFor(() =>
      expect(document.activeElement).toBe(card.getByRole('heading', { name: 'Your keys' })),
    );
  });

  it('reads the list again when the key was revoked elsewhere meanwhile', async () => {
    const { card, user, server } = await renderKeys([key()], {
      'DELETE /api/user/api-keys/key-1': () => {
        // Another tab revoked it first.
        server.keys = [];
        return jsonResponse({ message: 'API key not found.' }, 404);
      },
    });
    await user.click(await card.findByRole('button', { name: 'Revoke Discord bot' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke Key' }),
    );

    expect(within(await findToast()).getByText('API key not found.')).toBeDefined();
    expect(await card.findByText('You have no API keys yet.')).toBeDefined();
  });

  it('keeps the key listed and says why when revoking fails', async () => {
    const { card, user } = await renderKeys([key()], {
      'DELETE /api/user/api-keys/key-1': jsonResponse({ message: 'Not found' }, 404),
    });
    await user.click(await card.findByRole('button', { name: 'Revoke Discord bot' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke Key' }),
    );

    const shown = within(await findToast());
    expect(shown.getByText('Could not revoke the key')).toBeDefined();
    expect(shown.getByText('Not found')).toBeDefined();
    expect(card.getByRole('listitem', { name: 'Discord bot' })).toBeDefined();
  });
});
