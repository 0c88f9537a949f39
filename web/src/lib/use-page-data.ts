import {
  type FetchQueryOptions,
  hashKey,
  type QueryClient,
  type QueryKey,
  useQueryClient,
} from '@tanstack/react-query';
import { createContext, useContext } from 'react';

/**
 * Set while a page's first frame is rendered at build time
 * (src/prerender/entry.tsx), where no API answers. The digest of the error a
 * frame's waiting part throws there, so that part is left to the app.
 */
export const FrameContext = createContext(false);
export const FRAME_DIGEST = 'tunesmith-frame-waits-for-data';

/**
 * Thrown, in a frame, by a part of a page that waits for data: the frame
 * shows that part's loading state (its Suspense fallback), and the app,
 * which has the data, renders the part afresh rather than hydrating it.
 */
export class FrameWaitsForData extends Error {
  readonly digest = FRAME_DIGEST;
  constructor() {
    super('This part of the page waits for data; the app renders it.');
  }
}

/** The wait for each query's first answer, per query client, shared by every page that asks. */
const waits = new WeakMap<QueryClient, Map<string, Promise<void>>>();

function answered(queryClient: QueryClient, queryKey: QueryKey): boolean {
  const state = queryClient.getQueryState(queryKey);
  if (!state) return false;
  return state.data !== undefined || (state.status === 'error' && state.fetchStatus === 'idle');
}

/**
 * Holds the page back (by suspending) until each query has answered, with
 * data or with an error, so the page shows complete, without a flash of an
 * empty or wrong state or a jump as parts arrive. Inside a navigation the
 * previous page stays on screen meanwhile; on first load the page's fallback
 * shows. Errors are not thrown: the page shows its own error state. The
 * queries are asked for at once, side by side.
 */
export function usePageData(...queries: { queryKey: QueryKey }[]): void {
  const queryClient = useQueryClient();
  const inFrame = useContext(FrameContext);
  let forClient = waits.get(queryClient);
  if (!forClient) {
    forClient = new Map();
    waits.set(queryClient, forClient);
  }
  const pending: Promise<void>[] = [];
  for (const options of queries) {
    if (answered(queryClient, options.queryKey)) continue;
    if (inFrame) throw new FrameWaitsForData();
    const hash = hashKey(options.queryKey);
    let wait = forClient.get(hash);
    if (!wait) {
      const table = forClient;
      wait = queryClient.prefetchQuery(options as FetchQueryOptions).finally(() => table.delete(hash));
      table.set(hash, wait);
    }
    pending.push(wait);
  }
  // Thrown as TanStack Query's useSuspenseQuery does: React renders the page again once the answers are in.
  if (pending.length > 0) throw Promise.all(pending);
}
