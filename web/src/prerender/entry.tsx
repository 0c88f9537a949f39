/**
 * The visitor's first frame of a page, rendered to HTML at build time
 * (web/build/prerender.ts) so the page paints before its JavaScript runs.
 * It is the app itself, at `pathname`, for a visitor, with the site's
 * default settings; a part that needs data from the API shows its loading
 * state, marked for the app to render afresh (use-page-data.ts); the rest the
 * app hydrates.
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
import { FRAME_DIGEST, FrameContext, FrameWaitsForData } from '@/lib/use-page-data';

export async function renderFrame(pathname: string): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(userQueryKey, null);
  queryClient.setQueryData(siteQueryKey, defaultPublicSite);
  const history = UNSAFE_createMemoryHistory({
    initialEntries: [pathname],
    v5Compat: true,
  }) as unknown as AppHistory;
  const failures: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <FrameContext value={true}>
      <AppProvider queryClient={queryClient}>
        <AppPages history={history} />
      </AppProvider>
    </FrameContext>,
    {
      // Every boundary inline, complete: the frame must not need a script to show.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      // A part that waits for data shows its loading state; the app renders it (use-page-data.ts).
      // Any other error fails the build.
      onError: (error) => {
        if (error instanceof FrameWaitsForData) return FRAME_DIGEST;
        failures.push(error);
      },
    },
  );
  if (failures.length > 0) throw failures[0];
  const chunks: Buffer[] = [];
  for await (const chunk of prelude.pipe(new PassThrough())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
