import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { BUILT_PRICING_PAGE, inMemoryPricingPage } from '../../testing/in-memory-pricing-page';
import {
  fillPricingPage,
  followPlans,
  hasPlansSlot,
  pricingPlansHtml,
  refreshPricingPage,
} from './pricing-page';

const free = aPlan({
  id: 'free',
  description: 'Try AI music creation at no cost.\nPublic sharing only.',
  features: ['5 songs a week'],
});
const basic = aBasicPlan({
  id: 'basic',
  yearlyPrice: 90,
  sortOrder: 1,
  features: '30 songs a week\nDownloads',
});
const premium = aPlan({
  id: 'premium',
  name: 'Premium',
  weeklyPrice: 4.39,
  monthlyPrice: 19,
  yearlyPrice: 190,
  commercialUse: true,
  sortOrder: 2,
  features: ['100 songs a week'],
});

/** The text a browser without scripts shows of the slot (tags dropped, entities read). */
const shown = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/\s+/g, ' ')
    .trim();

describe('the plans of a pricing page without scripts', () => {
  it('shows each plan with its tagline, every price it is sold at with its savings, and its features', () => {
    const html = pricingPlansHtml([free, basic, premium]);
    expect(shown(html)).toBe(
      [
        'Free Try AI music creation at no cost. Free 5 songs a week',
        'Most Popular Basic $2.08 /week $9 /month $90 /year Save 17% 30 songs a week Downloads',
        'Premium $4.39 /week $19 /month $190 /year Save 17% 100 songs a week Commercial license',
      ].join(' '),
    );
    // Each is a card named by its heading.
    expect(html).toContain('<article aria-labelledby="plan-basic" class="h-full">');
    expect(html).toContain('<h2 id="plan-basic" class="text-2xl font-bold text-white">Basic</h2>');
  });

  it('escapes what an administrator typed', () => {
    const html = pricingPlansHtml([
      aPlan({
        name: 'Pro <b>',
        description: '"Quoted" & more',
        features: ['</noscript><script>x()</script>'],
      }),
    ]);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('</noscript>');
    expect(html).toContain('Pro &lt;b&gt;');
    expect(html).toContain('&quot;Quoted&quot; &amp; more');
  });

  it('says when no plan is offered', () => {
    expect(shown(pricingPlansHtml([]))).toBe('No plans are available right now. Please check back soon.');
  });

  it('fills the slot, again and again, and leaves a document without one as it is', () => {
    expect(hasPlansSlot(BUILT_PRICING_PAGE)).toBe(true);
    const once = fillPricingPage(BUILT_PRICING_PAGE, [free]);
    expect(once).toContain(
      `<noscript data-plans="">${pricingPlansHtml([free])}</noscript><div aria-busy="true">`,
    );
    const again = fillPricingPage(once, [free, basic]);
    expect(again).toBe(fillPricingPage(BUILT_PRICING_PAGE, [free, basic]));
    const old = '<html><body><div id="root"></div></body></html>';
    expect(hasPlansSlot(old)).toBe(false);
    expect(fillPricingPage(old, [free])).toBe(old);
  });
});

describe('refreshPricingPage', () => {
  it('writes the active plans in their order, and leaves a document that already shows them alone', async () => {
    const plans = inMemoryPlans([premium, free, basic, aPlan({ id: 'old', name: 'Old', isActive: false })]);
    const page = inMemoryPricingPage();

    expect(await refreshPricingPage({ plans, page })).toBe('written');
    expect(page.html).toBe(fillPricingPage(BUILT_PRICING_PAGE, [free, basic, premium]));
    expect(await refreshPricingPage({ plans, page })).toBe('unchanged');
    expect(page.writes).toBe(1);
  });

  it('writes again when the plans change while it writes: the document ends with what is stored last', async () => {
    const plans = inMemoryPlans([free, basic]);
    let raced = false;
    const page = inMemoryPricingPage(BUILT_PRICING_PAGE, {
      onWrite: async () => {
        if (raced) return;
        raced = true;
        await plans.put({ ...basic, monthlyPrice: 12 });
      },
    });

    expect(await refreshPricingPage({ plans, page })).toBe('written');
    expect(page.html).toBe(fillPricingPage(BUILT_PRICING_PAGE, [free, { ...basic, monthlyPrice: 12 }]));
    expect(page.writes).toBe(2);
  });

  it('writes nothing where there is no document, or one built without the slot', async () => {
    const plans = inMemoryPlans([free]);
    const none = inMemoryPricingPage();
    none.html = undefined;
    expect(await refreshPricingPage({ plans, page: none })).toBe('no-document');
    const old = inMemoryPricingPage('<html><body><div id="root"></div></body></html>');
    expect(await refreshPricingPage({ plans, page: old })).toBe('no-document');
    expect(none.writes + old.writes).toBe(0);
  });

  it('after a change that stands, reports a document it could not write rather than failing the change', async () => {
    const failures: unknown[] = [];
    await followPlans(
      {
        plans: inMemoryPlans([free]),
        page: inMemoryPricingPage(BUILT_PRICING_PAGE, { failWrite: () => true }),
      },
      (error) => failures.push(error),
    );
    expect(failures).toHaveLength(1);
  });
});
