import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { createRoutes } from '@/app/router';
import { Toaster } from '@/components/ui/toaster';
import { createQueryClient } from '@/lib/query-client';

/** Renders the whole app (layout, routes, loaders) at a path, as the browser would. */
export function renderApp(path: string, options: { userEvent?: Parameters<typeof userEvent.setup>[0] } = {}) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  const user = userEvent.setup(options.userEvent);
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
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
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            {ui}
            <Toaster />
          </>
        ),
      },
    ],
    { initialEntries: [options.path ?? '/'] },
  );
  const user = userEvent.setup(options.userEvent);
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, queryClient, user };
}

/** The toast on screen, found inside the notification area. */
export async function findToast(): Promise<HTMLElement> {
  const region = screen.getByRole('region', { name: 'Notifications (F8)' });
  return within(region).findByRole('status');
}
