import type { PricingDocument } from '../domain/plans/pricing-page';

/** The pricing page's document as the build writes it: its plans' loading state with an empty slot for the plans. */
export const BUILT_PRICING_PAGE =
  '<!doctype html><html><head><title>Pricing | Tunesmith</title></head><body><div id="root" data-prerendered=""><main><h1>Choose Your Plan</h1><!--$!--><template data-dgst="tunesmith-frame-waits-for-data"></template><noscript data-plans=""></noscript><div aria-busy="true">Loading plans</div><!--/$--></main></div></body></html>';

/** The document kept in memory, as the site bucket keeps it; every write is counted, `onWrite` runs after each. */
export function inMemoryPricingPage(
  initial: string = BUILT_PRICING_PAGE,
  options: { failWrite?: () => boolean; onWrite?: () => Promise<void> } = {},
): PricingDocument & { html: string | undefined; writes: number } {
  const page: PricingDocument & { html: string | undefined; writes: number } = {
    html: initial,
    writes: 0,
    async read() {
      return page.html;
    },
    async write(html: string) {
      if (options.failWrite?.()) throw new Error('site bucket unavailable');
      page.html = html;
      page.writes += 1;
      await options.onWrite?.();
    },
  };
  return page;
}
