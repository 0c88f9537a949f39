import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { ReactNode } from 'react';
import { type To, UNSAFE_createMemoryHistory } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppPages } from '@/app/router';
import { type AppHistory, TransitionRouter } from '@/app/transition-router';
import { Toaster } from '@/components/ui/toaster';
import type { User } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { anonymous, jsonResponse, type MockResponse, mockFetch } from './mock-fetch';

/** The address a test's app is at, and a way to go elsewhere as a link would. */
export interface TestRouter {
  readonly location: AppHistory['location'];
  navigate(to: To): Promise<void>;
  /** Back (-1) or Forward (1), as the browser's buttons. */
  go(delta: number): Promise<void>;
}

/** A history in memory at `path`, as the app's router drives the browser's. */
export function memoryHistory(path: string): { history: AppHistory; router: TestRouter } {
  const history: AppHistory = UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true });
  const router: TestRouter = {
    get location() {
      return history.location;
    },
    navigate: (to) =>
      act(async () => {
        history.push(to);
      }),
    go: (delta) =>
      act(async () => {
        history.go(delta);
      }),
  };
  return { history, router };
}

/** Renders the whole app (layouts, pages, the data they wait for) at a path, as the browser would. */
export function renderApp(path: string, options: { userEvent?: Parameters<typeof userEvent.setup>[0] } = {}) {
  const queryClient = createQueryClient();
  const { history, router } = memoryHistory(path);
  const user = userEvent.setup(options.userEvent);
  const result = render(
    <AppProvider queryClient={queryClient}>
      <AppPages history={history} />
    </AppProvider>,
  );
  return { ...result, router, queryClient, user };
}

/** Renders one component with a query client, a router and the notification area. */
export function renderWithProviders(
  ui: ReactNode,
  options: { path?: string; userEvent?: Parameters<typeof userEvent.setup>[0] } = {},
) {
  const queryClient = createQueryClient();
  const { history, router } = memoryHistory(options.path ?? '/');
  const user = userEvent.setup(options.userEvent);
  const result = render(
    <AppProvider queryClient={queryClient}>
      <TransitionRouter history={history}>
        {ui}
        <Toaster />
      </TransitionRouter>
    </AppProvider>,
  );
  return { ...result, router, queryClient, user };
}

/** The toast on screen, found inside the notification area. */
export async function findToast(): Promise<HTMLElement> {
  // The area loads with the first toast. While a modal dialog is open the rest of the page is
  // aria-hidden; the toast still shows above it and is announced through Radix's live region.
  const region = await screen.findByRole('region', { name: 'Notifications (F8)', hidden: true });
  return within(region).findByRole('status', { hidden: true });
}

/**
 * The app at `path` for a user whose record the server may change during the
 * test (`state.user`), with `routes` answered; `calls` lists the requests made.
 */
export function renderAppAs(
  path: string,
  initial: User | null,
  routes: Record<string, MockResponse> = {},
  options: Parameters<typeof renderApp>[1] = {},
) {
  const state = { user: initial };
  const fetchMock = mockFetch({
    'GET /api/auth/user': () => (state.user ? jsonResponse(state.user) : anonymous()),
    ...routes,
  });
  const rendered = renderApp(path, options);
  const calls = (method: string, url: string) =>
    fetchMock.mock.calls.filter(
      ([called, init]) => String(called) === url && (init?.method ?? 'GET') === method,
    );
  return { ...rendered, state, fetchMock, calls };
}
