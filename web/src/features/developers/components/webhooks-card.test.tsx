import { act, screen, waitFor, within } from '@testing-library/react';
import {
  developerMessages,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@tunesmith/shared/developer-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { jsonResponse, type MockResponse } from '@/testing/mock-fetch';
import { findToast, renderAppAs } from '@/testing/render';
import { DELIVERIES_POLL_MS } from '../api/webhooks';

const secret = 'whsec_Q3mT8vYp2LkX9sRb7nWc4hJd6fZa1gUe';
const url = 'https://hooks.example.com/tunesmith';

const endpoint = (overrides: Partial<WebhookEndpointView> = {}): WebhookEndpointView => ({
  id: 'wh-1',
  url,
  events: ['track.completed', 'track.failed'],
  createdAt: '2026-03-04T10:00:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDeliveryView> = {}): WebhookDeliveryView => ({
  id: 'dl-1',
  event: 'track.completed',
  status: 'delivered',
  attempts: 1,
  responseStatus: 200,
  error: null,
  nextAttemptAt: null,
  createdAt: '2026-03-04T10:00:00.000Z',
  updatedAt: '2026-03-04T10:00:01.000Z',
  ...overrides,
});

/** The profile with the Webhooks card; the server holds `endpoints` and answers from them. */
async function renderWebhooks(
  initial: WebhookEndpointView[] = [],
  routes: Record<string, MockResponse> = {},
  userEvent: NonNullable<Parameters<typeof renderAppAs>[3]>['userEvent'] = {},
) {
  const server = { endpoints: [...initial] };
  const rendered = renderAppAs(
    '/profile',
    makeUser(),
    {
      'GET /api/user/api-keys': () => jsonResponse({ keys: [] }),
      'GET /api/user/webhooks': () => jsonResponse({ endpoints: server.endpoints }),
      'POST /api/user/webhooks': async (request) => {
        const body = (await request.json()) as Pick<WebhookEndpointView, 'url' | 'events'>;
        const made = endpoint({ id: 'wh-new', ...body });
        server.endpoints = [...server.endpoints, made];
        return jsonResponse({ ...made, secret }, 201);
      },
      ...routes,
    },
    { userEvent },
  );
  const card = within(await screen.findByRole('region', { name: 'Webhooks' }));
  return { ...rendered, server, card };
}

afterEach(() => vi.useRealTimers());

describe('Profile → Developers: webhooks', () => {
  it('says when there are no endpoints yet', async () => {
    const { card } = await renderWebhooks();
    expect(await card.findByText('You have no webhook endpoints yet.')).toBeDefined();
  });

  it('lists each endpoint with its events', async () => {
    const { card } = await renderWebhooks([
      endpoint(),
      endpoint({ id: 'wh-2', url: 'https://other.example.com/in', events: ['stems.ready'] }),
    ]);
    const first = within(await card.findByRole('listitem', { name: url }));
    expect(first.getByText(/^track\.completed, track\.failed · Added Mar 4, 2026$/)).toBeDefined();
    const second = within(card.getByRole('listitem', { name: 'https://other.example.com/in' }));
    expect(second.getByText(/^stems\.ready · /)).toBeDefined();
  });

  it('adds an endpoint with the events ticked and shows its signing secret once', async () => {
    const { card, user, calls } = await renderWebhooks();
    await card.findByText('You have no webhook endpoints yet.');

    for (const event of ['track.completed', 'track.failed', 'stems.ready']) {
      expect((card.getByRole('checkbox', { name: new RegExp(event) }) as HTMLInputElement).checked).toBe(
        true,
      );
    }
    await user.type(card.getByLabelText('Endpoint URL'), url);
    await user.click(card.getByRole('checkbox', { name: /stems\.ready/ }));
    await user.click(card.getByRole('button', { name: 'Add Endpoint' }));

    const dialog = within(await screen.findByRole('alertdialog', { name: "Your endpoint's signing secret" }));
    const sent = calls('POST', '/api/user/webhooks').map(([, init]) => JSON.parse(String(init?.body)));
    expect(sent).toEqual([{ url, events: ['track.completed', 'track.failed'] }]);
    expect((dialog.getByLabelText('Signing secret') as HTMLInputElement).value).toBe(secret);
    expect(dialog.getByText(/You will not see this secret again/)).toBeDefined();
    await user.click(dialog.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(secret);

    await user.click(dialog.getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(secret)).toBeNull();
    expect(await card.findByRole('listitem', { name: url })).toBeDefined();
  });

  it("shows the server's refusal of the address at the URL field, and the endpoint limit above the button", async () => {
    let answer = jsonResponse({ message: developerMessages.webhookUrlInvalid }, 400);
    const { card, user } = await renderWebhooks([], { 'POST /api/user/webhooks': () => answer });
    await user.type(card.getByLabelText('Endpoint URL'), 'http://hooks.example.com');
    await user.click(card.getByRole('button', { name: 'Add Endpoint' }));

    const message = await card.findByText(developerMessages.webhookUrlInvalid);
    expect(card.getByLabelText('Endpoint URL').getAttribute('aria-describedby')).toBe(message.id);

    answer = jsonResponse({ message: developerMessages.tooManyWebhooks }, 409);
    await user.click(card.getByRole('button', { name: 'Add Endpoint' }));
    expect((await card.findByRole('alert')).textContent).toBe(developerMessages.tooManyWebhooks);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks for an address and an event before sending', async () => {
    const { card, user, calls } = await renderWebhooks();
    for (const event of ['track.completed', 'track.failed', 'stems.ready']) {
      await user.click(card.getByRole('checkbox', { name: new RegExp(event) }));
    }
    await user.click(card.getByRole('button', { name: 'Add Endpoint' }));

    expect(await card.findByText(developerMessages.webhookUrlInvalid)).toBeDefined();
    expect(card.getByText(developerMessages.webhookEventsRequired)).toBeDefined();
    expect(calls('POST', '/api/user/webhooks')).toHaveLength(0);
  });

  it('deletes an endpoint only once the confirmation is accepted', async () => {
    const { card, user, calls, server } = await renderWebhooks([endpoint()], {
      'DELETE /api/user/webhooks/wh-1': () => {
        server.endpoints = [];
        return new Response(null, { status: 204 });
      },
    });
    await user.click(await card.findByRole('button', { name: `Delete ${url}` }));
    let confirm = within(await screen.findByRole('alertdialog', { name: 'Delete this endpoint?' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE', '/api/user/webhooks/wh-1')).toHaveLength(0);
    expect(card.getByRole('listitem', { name: url })).toBeDefined();

    await user.click(card.getByRole('button', { name: `Delete ${url}` }));
    confirm = within(await screen.findByRole('alertdialog', { name: 'Delete this endpoint?' }));
    await user.click(confirm.getByRole('button', { name: 'Delete Endpoint' }));

    expect(within(await findToast()).getByText('Endpoint deleted')).toBeDefined();
    expect(await card.findByText('You have no webhook endpoints yet.')).toBeDefined();
    expect(calls('DELETE', '/api/user/webhooks/wh-1')).toHaveLength(1);
    await waitFor(() =>
      expect(document.activeElement).toBe(card.getByRole('heading', { name: 'Your endpoints' })),
    );
  });

  it('sends a test event and says how the endpoint answered', async () => {
    let answer = delivery({ id: 'dl-test', event: 'webhook.test', status: 'delivered', responseStatus: 204 });
    const { card, user, calls } = await renderWebhooks([endpoint()], {
      'POST /api/user/webhooks/wh-1/test': () => jsonResponse(answer),
      'GET /api/user/webhooks/wh-1/deliveries': () => jsonResponse({ deliveries: [answer] }),
    });
    const item = within(await card.findByRole('listitem', { name: url }));
    await user.click(item.getByRole('button', { name: 'Send test event' }));

    let shown = within(await findToast());
    expect(shown.getByText('Test event delivered')).toBeDefined();
    expect(shown.getByText('Your endpoint answered 204.')).toBeDefined();
    expect(calls('POST', '/api/user/webhooks/wh-1/test')).toHaveLength(1);
    // The log opens with the test delivery in it.
    expect(await item.findByRole('listitem', { name: 'webhook.test, Delivered' })).toBeDefined();

    answer = delivery({
      id: 'dl-test-2',
      event: 'webhook.test',
      status: 'failed',
      responseStatus: null,
      error: 'Connection refused',
    });
    await user.click(item.getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(screen.getByText('Test event not delivered')).toBeDefined());
    shown = within(await findToast());
    expect(shown.getByText('Connection refused')).toBeDefined();
    expect(await item.findByRole('listitem', { name: 'webhook.test, Failed' })).toBeDefined();

    answer = delivery({
      id: 'dl-test-3',
      event: 'webhook.test',
      status: 'failed',
      responseStatus: 500,
      error: null,
    });
    await user.click(item.getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(screen.getByText('Your endpoint answered 500.')).toBeDefined());

    // The server's reason already names the answer: said once.
    answer = delivery({
      id: 'dl-test-4',
      event: 'webhook.test',
      status: 'failed',
      responseStatus: 503,
      error: 'The endpoint answered 503',
    });
    await user.click(item.getByRole('button', { name: 'Send test event' }));
    const notifications = within(screen.getByRole('region', { name: 'Notifications (F8)', hidden: true }));
    expect(await notifications.findByText('The endpoint answered 503')).toBeDefined();
    expect(notifications.queryByText(/Your endpoint answered/)).toBeNull();
  });

  it('says why a test event could not be sent', async () => {
    const { card, user } = await renderWebhooks([endpoint()], {
      'POST /api/user/webhooks/wh-1/test': jsonResponse({ message: developerMessages.noApiAccess }, 403),
      'GET /api/user/webhooks/wh-1/deliveries': jsonResponse({ deliveries: [] }),
    });
    await user.click(await card.findByRole('button', { name: 'Send test event' }));

    const shown = within(await findToast());
    expect(shown.getByText('Could not send the test event')).toBeDefined();
    expect(shown.getByText(developerMessages.noApiAccess)).toBeDefined();
  });

  it('shows each delivery: event, status, attempts, response code, error and next try', async () => {
    const { card, user } = await renderWebhooks([endpoint()], {
      'GET /api/user/webhooks/wh-1/deliveries': jsonResponse({
        deliveries: [
          delivery({
            id: 'dl-2',
            event: 'track.failed',
            status: 'failed',
            attempts: 7,
            responseStatus: null,
            error: 'Connection refused',
          }),
          delivery(),
        ],
      }),
    });
    const item = within(await card.findByRole('listitem', { name: url }));
    await user.click(item.getByRole('button', { name: 'Show deliveries' }));

    const failed = within(await item.findByRole('listitem', { name: 'track.failed, Failed' }));
    const field = (row: typeof failed, name: string) =>
      row.getByText(name, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(field(failed, 'Attempts')).toBe('7');
    expect(field(failed, 'Response')).toBe('No answer');
    expect(field(failed, 'Error')).toBe('Connection refused');
    expect(failed.queryByText('Next try')).toBeNull();
    const delivered = within(item.getByRole('listitem', { name: 'track.completed, Delivered' }));
    expect(field(delivered, 'Response')).toBe('200');
    expect(field(delivered, 'Attempts')).toBe('1');

    await user.click(item.getByRole('button', { name: 'Hide deliveries' }));
    expect(item.queryByRole('listitem', { name: 'track.failed, Failed' })).toBeNull();
  });

  it('says when nothing has been delivered yet', async () => {
    const { card, user } = await renderWebhooks([endpoint()], {
      'GET /api/user/webhooks/wh-1/deliveries': jsonResponse({ deliveries: [] }),
    });
    await user.click(await card.findByRole('button', { name: 'Show deliveries' }));
    expect(await card.findByText('Nothing has been sent to this endpoint yet.')).toBeDefined();
  });

  it('reads the log again while a delivery waits for its next try, and stops once none does', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answers = [
      delivery({
        status: 'pending',
        attempts: 1,
        responseStatus: 503,
        nextAttemptAt: '2026-03-04T10:01:00.000Z',
      }),
    ];
    const { card, user, calls } = await renderWebhooks(
      [endpoint()],
      { 'GET /api/user/webhooks/wh-1/deliveries': () => jsonResponse({ deliveries: answers }) },
      { advanceTimers: vi.advanceTimersByTime },
    );
    const reads = () => calls('GET', '/api/user/webhooks/wh-1/deliveries').length;
    const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    const item = within(await card.findByRole('listitem', { name: url }));
    await user.click(item.getByRole('button', { name: 'Show deliveries' }));
    const pending = within(await item.findByRole('listitem', { name: 'track.completed, Pending' }));
    expect(pending.getByText('Next try')).toBeDefined();
    expect(reads()).toBe(1);

    answers = [delivery({ attempts: 2 })];
    await wait(DELIVERIES_POLL_MS);
    expect(await item.findByRole('listitem', { name: 'track.completed, Delivered' })).toBeDefined();
    expect(reads()).toBe(2);

    await wait(DELIVERIES_POLL_MS * 3);
    expect(reads()).toBe(2);
  });
});
