/**
 * The visitor's first frame of a page, rendered to HTML at build time
 * (web/build/prerender.ts) so the page paints before its JavaScript runs.
 * It is the app itself, at `pathname`, for a visitor, with the site's
 * default settings; what needs data from the API renders its loading state.
 */

import { PassThrough } from 'node:stream';
import { defaultPublicSite } from '@tunesmith/shared/settings';
import { prerenderToNodeStream } from 'react-dom/static';
import { UNSAFE_createMemoryHistory } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppPages } from '@/app/router';
import type { AppHistory } from '@/app/transition-router';
import { userQueryKey } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { siteQueryKey } from '@/lib/site';

export async function renderFrame(pathname: string): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(userQueryKey, null);
  queryClient.setQueryData(siteQueryKey, defaultPublicSite);
  const history = UNSAFE_createMemoryHistory({
    initialEntries: [pathname],
    v5Compat: true,
  }) as unknown as AppHistory;
  const { prelude } = await prerenderToNodeStream(
    <AppProvider queryClient={queryClient}>
      <AppPages history={history} />
    </AppProvider>,
    // Every boundary inline, complete: the frame must not need a script to show.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude.pipe(new PassThrough())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
