const SITE_NAME = 'Tunesmith';

/** A document title for a page: `Pricing | Tunesmith`. */
export function pageTitle(page?: string): string {
  return page ? `${page} | ${SITE_NAME}` : `${SITE_NAME}: Create Music with AI`;
}
