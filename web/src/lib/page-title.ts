import { knownSite } from './site';

/**
 * A document title for a page, `Pricing | Tunesmith`, under the site's name
 * (Site Settings): the frames show pages once the name is known.
 */
export function pageTitle(page?: string, siteName: string = knownSite().name): string {
  return page ? `${page} | ${siteName}` : `${siteName}: Create Music with AI`;
}
