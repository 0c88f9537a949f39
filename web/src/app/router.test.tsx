import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import type { Params, RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSignedInHint } from '@/lib/auth';
import { callsMade, mockFetch } from '@/testing/mock-fetch';
import { renderApp } from '@/testing/render';
import { createRoutes, preloadPages, preloadPagesOnIntent, preloadPagesWithData } from './router';

const page = () => ({ default: () => null });

/** Routes as `createRoutes` makes them: each lazily loaded one says, in its handle, how to fetch its code. */
function routeTable() {
  const layout = vi.fn(async () => page());
  const pricing = vi.fn(async () => page());
  const track = vi.fn(async () => page());
  const routes: RouteObject[] = [
    {
      path: '/',
      children: [
        { path: 'pricing', handle: { preload: pricing } },
        { path: 'track/:id', handle: { preload: track } },
      ],
    },
    {
      path: '/admin',
      handle: { preload: layout },
      children: [{ index: true, handle: { preload: vi.fn(async () => page()) } }],
    },
  ];
  return { routes, layout, pricing, track };
}

function link(href: string, text = href) {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.textContent = text;
  document.body.append(anchor);
  return anchor;
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  document.body.replaceChildren();
});

describe('preloadPagesOnIntent', () => {
  it("fetches a page's code when the pointer reaches its link, once", () => {
    const { routes, pricing, track } = routeTable();
    stop = preloadPagesOnIntent(routes);
    const pricingLink = link('/pricing');

    pricingLink.dispatchEvent(new Event('pointerover', { bubbles: true }));
    pricingLink.dispatchEvent(new Event('pointerover', { bubbles: true }));

    expect(pricing).toHaveBeenCalledTimes(1);
    expect(track).not.toHaveBeenCalled();
  });

  it('fetches on keyboard focus and on touch, for pages with parameters and their layouts', () => {
    const { routes, layout, track } = routeTable();
    stop = preloadPagesOnIntent(routes);

    link('/track/abc').dispatchEvent(new Event('focusin', { bubbles: true }));
    link('/admin').dispatchEvent(new Event('touchstart', { bubbles: true }));

    expect(track).toHaveBeenCalledTimes(1);
    expect(layout).toHaveBeenCalledTimes(1);
  });

  it('reaches the link from an element inside it', () => {
    const { routes, pricing } = routeTable();
    stop = preloadPagesOnIntent(routes);
    const icon = document.createElement('span');
    link('/pricing', '').append(icon);

    icon.dispatchEvent(new Event('pointerover', { bubbles: true }));

    expect(pricing).toHaveBeenCalledTimes(1);
  });

  it('leaves links to other sites and pages without a route alone', () => {
    const { routes, layout, pricing, track } = routeTable();
    stop = preloadPagesOnIntent(routes);

    link('https://elsewhere.example/pricing').dispatchEvent(new Event('pointerover', { bubbles: true }));
    link('/nowhere').dispatchEvent(new Event('pointerover', { bubbles: true }));

    expect([layout, pricing, track].map((lazy) => lazy.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it('stops listening when stopped', () => {
    const { routes, pricing } = routeTable();
    preloadPagesOnIntent(routes)();

    link('/pricing').dispatchEvent(new Event('pointerover', { bubbles: true }));

    expect(pricing).not.toHaveBeenCalled();
  });
});

describe('preloadPagesWithData', () => {
  it("fetches the page's code, then the data the page waits for at the address", async () => {
    const order: string[] = [];
    const routes: RouteObject[] = [
      {
        path: '/',
        children: [
          {
            path: 'track/:id',
            handle: {
              preload: async () => order.push('code'),
              pageData: ({ id }: Params) => [
                {
                  queryKey: ['track', id],
                  queryFn: async () => {
                    order.push('data');
                    return { id };
                  },
                },
              ],
            },
          },
        ],
      },
    ];
    const client = new QueryClient();

    await preloadPagesWithData(routes, '/track/t1', client);

    expect(order).toEqual(['code', 'data']);
    expect(client.getQueryData(['track', 't1'])).toEqual({ id: 't1' });
  });
});

describe('preloadPages with a query client', () => {
  it("starts each shown page's own preparation with its parameters once its code is here, and no other page's", async () => {
    const order: string[] = [];
    const shown = vi.fn(() => order.push('prepare'));
    const other = vi.fn();
    const routes: RouteObject[] = [
      {
        path: '/',
        children: [
          { path: 'track/:id', handle: { preload: async () => order.push('code'), prepare: shown } },
          { path: 'pricing', handle: { preload: async () => undefined, prepare: other } },
        ],
      },
    ];
    const client = new QueryClient();

    await preloadPages(routes, '/track/t1', client);

    expect(order).toEqual(['code', 'prepare']);
    expect(shown).toHaveBeenCalledWith({ id: 't1' }, client);
    expect(other).not.toHaveBeenCalled();
  });

  it('prepares nothing without a query client', async () => {
    const prepare = vi.fn();
    await preloadPages(
      [{ path: '/pricing', handle: { preload: async () => undefined, prepare } }],
      '/pricing',
    );
    expect(prepare).not.toHaveBeenCalled();
  });

  it("asks for the pricing page's plans once its code is here, without waiting for them", async () => {
    const fetchMock = mockFetch({ 'GET /api/plans': () => new Promise<Response>(() => {}) });
    const client = new QueryClient();

    await preloadPages(createRoutes(), '/pricing', client);

    expect(callsMade(fetchMock)).toEqual(['GET /api/plans']);
    expect(client.getQueryState(['plans'])?.fetchStatus).toBe('fetching');
  });

  it("asks for a visitor's gallery on the home page, and not for someone who may be signed in", async () => {
    const visitor = mockFetch({ 'GET /api/public-tracks': () => new Promise<Response>(() => {}) });
    clearSignedInHint();
    await preloadPages(createRoutes(), '/', new QueryClient());
    expect(callsMade(visitor)).toEqual(['GET /api/public-tracks']);

    const member = mockFetch({ 'GET /api/auth/user': () => new Promise<Response>(() => {}) });
    await preloadPages(createRoutes(), '/', new QueryClient());
    expect(callsMade(member)).toEqual([]);
  });
});

describe("a page's code loaded on first visit", () => {
  it('renders once it is here without React refusing how the page loader suspended', async () => {
    const errors = vi.spyOn(console, 'error');
    renderApp('/terms');

    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeDefined();
    const said = errors.mock.calls.map((call) => call.map(String).join(' '));
    expect(said.filter((line) => line.includes('use()'))).toEqual([]);
  });
});
