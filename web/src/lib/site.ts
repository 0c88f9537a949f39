import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import { defaultPublicSite, type PublicSite } from '@tunesmith/shared/public-site';
import { apiRequest } from './api-client';

export type Site = PublicSite;

/**
 * Reads `GET /api/site`'s answer: the four public settings, each a string.
 * Checked by hand rather than with the shared zod schema, so the first page
 * of the site does not load zod (it is only needed with the forms).
 */
export function readPublicSite(value: unknown): Site {
  const answer = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { name, description, supportEmail, contactEmail } = answer;
  if (
    typeof name !== 'string' ||
    typeof description !== 'string' ||
    typeof supportEmail !== 'string' ||
    typeof contactEmail !== 'string'
  ) {
    throw new TypeError('The site settings are not in the expected form');
  }
  return { name, description, supportEmail, contactEmail };
}

/** The site as it was last read (the defaults until then): for what renders outside React's data, the tab title. */
let known: Site = defaultPublicSite;

/**
 * How the site names itself (Site Settings, General), from `GET /api/site`.
 * A failed read gives the defaults: the site still works under its own name.
 */
export async function getSite(): Promise<Site> {
  try {
    known = readPublicSite(await apiRequest(catalogCalls.getSite));
  } catch {
    known = defaultPublicSite;
  }
  return known;
}

export const siteQueryKey = ['site'] as const;

export const siteQueryOptions = () =>
  queryOptions({
    queryKey: siteQueryKey,
    queryFn: getSite,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/**
 * The site's name, description and addresses. `isLoading` until they are
 * known (the frames show the page only then, so titles name the site rightly).
 */
export function useSite(): { site: Site; isLoading: boolean } {
  const query = useQuery(siteQueryOptions());
  return { site: query.data ?? known, isLoading: query.isPending };
}

/** The site as last read, for code that is not a component (document titles). */
export function knownSite(): Site {
  return known;
}

/** Shows a saved public setting at once, everywhere (the admin's Save). */
export function rememberSite(queryClient: QueryClient, changes: Partial<Site>): void {
  known = { ...known, ...changes };
  queryClient.setQueryData<Site>(siteQueryKey, known);
}

/**
 * Public site details, as last read: the support and contact addresses the
 * legal and contact pages give.
 */
export const site = {
  get name() {
    return known.name;
  },
  get supportEmail() {
    return known.supportEmail;
  },
  get contactEmail() {
    return known.contactEmail;
  },
};
