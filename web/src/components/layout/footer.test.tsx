import { QueryClientProvider } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { defaultPublicSite } from '@tunesmith/shared/settings';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { siteQueryKey } from '@/lib/site';
import { renderWithProviders } from '@/testing/render';
import { Footer } from './footer';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

function footerApp() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(siteQueryKey, defaultPublicSite);
  return (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <Footer />
      </MemoryRouter>
    </QueryClientProvider>
  );
}

describe('footer', () => {
  it('says the year it is now', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-06-15T12:00:00Z'));
    renderWithProviders(<Footer />);

    expect(await screen.findByText('© 2031 Tunesmith. All rights reserved.')).toBeDefined();
  });

  it('takes over a frame built in an earlier year and writes this year, without rendering afresh', async () => {
    // The frame, as the build writes it (web/build/prerender.ts): in the year of the build.
    const container = document.createElement('div');
    container.innerHTML = renderToString(footerApp());
    document.body.append(container);
    expect(container.textContent).toContain(`© ${__BUILD_YEAR__} Tunesmith.`);

    // Read a year later.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${__BUILD_YEAR__ + 1}-01-02T12:00:00Z`));
    const afresh: unknown[] = [];
    const frameFooter = container.querySelector('footer');
    await act(async () => {
      hydrateRoot(container, footerApp(), { onRecoverableError: (error) => afresh.push(error) });
    });

    expect(container.textContent).toContain(`© ${__BUILD_YEAR__ + 1} Tunesmith. All rights reserved.`);
    expect(afresh).toEqual([]);
    // The same element: hydrated, not replaced.
    expect(container.querySelector('footer')).toBe(frameFooter);
  });
});
