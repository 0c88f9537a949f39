import { screen, within } from '@testing-library/react';
import { routesOfGroup } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { anonymous, deferredResponse, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { renderApp, renderAppAs } from '@/testing/render';
import createTrackSh from '../../../../docs/examples/create-track.sh?raw';
import verifyWebhookTs from '../../../../docs/examples/verify-webhook.ts?raw';
import { openApiDocument } from '../../../../functions/src/http/openapi';

/** The document the API serves, as JSON. */
const apiDocument = () => JSON.parse(JSON.stringify(openApiDocument('https://tunesmith.test')));

describe('Developers page', () => {
  it('renders every call of the API from the document, with its fields and answers', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/v1/openapi.json': jsonResponse(apiDocument()) });
    renderApp('/developers');

    expect(await screen.findByRole('heading', { level: 1, name: 'Tunesmith API' })).toBeDefined();
    expect(document.title).toBe('Developers | Tunesmith');
    for (const route of routesOfGroup('api-v1')) {
      const heading = await screen.findByRole('heading', {
        level: 3,
        name: new RegExp(`^${route.method} ${route.path.replace(/[{}.]/g, '\\$&')} ?:`),
      });
      expect(heading, route.id).toBeDefined();
    }
    const create = screen.getByRole('article', { name: /^POST \/api\/v1\/tracks ?:/ });
    const body = within(create).getByRole('table', { name: 'Create a track: request body' });
    const tags = within(body).getByRole('row', { name: /^tags/ });
    expect(tags.textContent).toContain('required; 1 to 500 characters');
    expect(within(create).getByText('Idempotency-Key')).toBeDefined();
    expect(within(create).getByText('429')).toBeDefined();
    const get = screen.getByRole('article', { name: /^GET \/api\/v1\/tracks\/\{id\} ?:/ });
    expect(within(get).getByRole('row', { name: /^audio\.stream/ })).toBeDefined();
    expect(within(get).getByText(/Needs a key with the/).textContent).toContain('read scope');
  });

  it('explains keys, idempotency, limits, errors and webhooks, and shows the examples the suite runs', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/v1/openapi.json': jsonResponse(apiDocument()) });
    renderApp('/developers');

    const nav = await screen.findByRole('navigation', { name: 'On this page' });
    for (const name of [
      'Authentication',
      'Idempotency',
      'Rate limits',
      'Errors',
      'Endpoints',
      'Webhooks',
      'Examples',
    ]) {
      expect(within(nav).getByRole('link', { name }).getAttribute('href')).toMatch(/^#/);
      expect(screen.getByRole('heading', { level: 2, name })).toBeDefined();
    }
    expect(screen.getByText(/60 requests a minute, of which 10 may start/)).toBeDefined();
    expect(screen.getByRole('row', { name: /^422 idempotency_mismatch/ })).toBeDefined();
    for (const event of ['track.completed', 'track.failed', 'stems.ready'])
      expect(screen.getByRole('heading', { level: 3, name: event })).toBeDefined();
    expect(screen.getByRole('region', { name: 'verify-webhook.ts' }).textContent).toBe(verifyWebhookTs);
    expect(screen.getByRole('region', { name: 'create-track.sh' }).textContent).toBe(createTrackSh);
    expect(screen.getByRole('region', { name: 'Environment' }).textContent).toContain(
      'TUNESMITH_URL=https://tunesmith.test',
    );
  });

  it('shows the TypeScript example on its tab', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/v1/openapi.json': jsonResponse(apiDocument()) });
    const { user } = renderApp('/developers');

    const tabs = await screen.findByRole('tablist', { name: 'Create a track and wait for it: language' });
    await user.click(within(tabs).getByRole('tab', { name: 'TypeScript' }));
    expect((await screen.findByRole('region', { name: 'create-track.ts' })).textContent).toContain(
      "'/api/v1/tracks'",
    );
  });

  it('says so while the document loads, and offers to try again when it cannot be loaded', async () => {
    let answer = jsonResponse({ message: 'Service unavailable' }, 503);
    const slow = deferredResponse(() => answer.clone());
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/v1/openapi.json': slow.handler });
    const { user } = renderApp('/developers');

    expect(await screen.findByText('Loading the API reference')).toBeDefined();
    slow.respond();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The API reference could not be loaded');

    answer = jsonResponse(apiDocument());
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Endpoints' })).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is linked from the footer', async () => {
    mockFetch({ 'GET /api/auth/user': anonymous(), 'GET /api/v1/openapi.json': jsonResponse(apiDocument()) });
    const { user } = renderApp('/pricing');

    const footer = await screen.findByRole('contentinfo');
    await user.click(within(footer).getByRole('link', { name: 'Developers' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tunesmith API' })).toBeDefined();
  });

  it('is linked from Profile', async () => {
    const { user } = renderAppAs('/profile', makeUser(), {
      'GET /api/v1/openapi.json': jsonResponse(apiDocument()),
    });

    await user.click(await screen.findByRole('link', { name: 'Read the API reference' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tunesmith API' })).toBeDefined();
  });
});
