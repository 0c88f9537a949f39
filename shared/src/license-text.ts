/**
 * A track's license as people read it: the summaries and where the terms say
 * more. Apart from ownership.ts's schemas, so that a page that only shows a
 * license (a visitor's track page) does not load the schema library.
 */

export const licenseSummaries = {
  commercial: 'Commercial use allowed: you may use this track in ads, products and paid content.',
  personal: 'Personal, non-commercial use only.',
} as const;

/** The anchor of the terms page's license section. */
export const TERMS_LICENSE_PATH = '/terms#license';
