import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import { PRICING_PLANS_SLOT } from '@tunesmith/shared/pages';
import {
  formatPrice,
  isFreePlan,
  isPopularPlan,
  planCardFeatures,
  planPrice,
  planSavingsPercent,
  planTagline,
} from '@tunesmith/shared/plan-values';
import { escapeHtml } from '../tracks/share-page';
import type { Plan, PlanRepository } from './plan';
import { listActivePlans } from './plan-service';

/**
 * The pricing page's document carries the plans (decision 038): a browser
 * without scripts shows them, prices and all, where the app shows its plan
 * cards. The build leaves an empty slot for them (`PRICING_PLANS_SLOT`, a
 * `<noscript>` in the part of the page the app renders afresh); the server
 * fills it with the active plans whenever they change (an administrator's
 * create, edit or delete) and after every deploy (a new document), so the
 * document is never more than a moment behind the plans.
 */

/** The deployed pricing document (`pages/pricing.html` beside the shell). */
export interface PricingDocument {
  /** The document as served now; undefined when there is none (a site without a build). */
  read(): Promise<string | undefined>;
  /** Serves `html` as the document from now on. */
  write(html: string): Promise<void>;
}

/** What keeping the pricing document in line needs. */
export interface PricingPageDeps {
  plans: Pick<PlanRepository, 'listBySortOrder'>;
  page: PricingDocument;
}

const cycleUnit: Record<BillingCycle, string> = { weekly: 'week', monthly: 'month', yearly: 'year' };

/** A check mark, as the plan cards draw one before each feature. */
const CHECK =
  '<svg aria-hidden="true" viewBox="0 0 24 24" class="mt-0.5 size-4 shrink-0 text-fuchsia-400" fill="none" stroke="currentColor" stroke-width="3"><path d="M5 13l4 4L19 7"></path></svg>';

/**
 * What a plan costs, line by line: Free, or each cycle it is sold on with
 * what it saves. A page without scripts has no cycle toggle, so every cycle
 * is listed.
 */
function priceLines(plan: Plan): string[] {
  if (isFreePlan(plan)) return ['<span class="text-4xl font-extrabold text-white">Free</span>'];
  return BILLING_CYCLES.filter((cycle) => planPrice(plan, cycle) > 0).map((cycle) => {
    const savings = planSavingsPercent(plan, cycle);
    return [
      `<span class="text-2xl font-extrabold text-white">${escapeHtml(formatPrice(planPrice(plan, cycle)))}</span>`,
      `<span class="text-zinc-400">/${cycleUnit[cycle]}</span>`,
      savings
        ? ` <span class="rounded-full bg-emerald-500/15 px-2.5 py-0.5 text-sm font-medium text-emerald-300">Save ${savings}%</span>`
        : '',
    ].join('');
  });
}

/** One plan as the pricing page's card shows it to a visitor, in the card's classes (web/src/features/pricing). */
function planCard(plan: Plan): string {
  const heading = `plan-${escapeHtml(plan.id)}`;
  const name = escapeHtml(plan.name);
  const tagline = planTagline(plan.description);
  const popular = isPopularPlan(plan);
  return [
    `<li><article aria-labelledby="${heading}" class="h-full">`,
    `<div class="relative flex h-full flex-col rounded-2xl border bg-zinc-900/70 text-zinc-100 shadow-xl shadow-black/20 ${popular ? 'border-fuchsia-500/70 ring-1 ring-fuchsia-500/50' : 'border-white/10'}">`,
    popular
      ? '<span class="absolute -top-3 left-1/2 inline-flex -translate-x-1/2 items-center rounded-full bg-gradient-to-r from-violet-600 to-fuchsia-600 px-3 py-1 text-xs font-semibold text-white shadow-lg">Most Popular</span>'
      : '',
    `<div class="flex flex-col gap-1.5 p-6"><h2 id="${heading}" class="text-2xl font-bold text-white">${name}</h2>`,
    tagline ? `<p class="text-sm text-zinc-300">${escapeHtml(tagline)}</p>` : '',
    '</div><div class="flex flex-col gap-6 px-6 pb-6">',
    `<ul class="grid gap-2" aria-label="${name} prices">`,
    ...priceLines(plan).map((line) => `<li class="flex flex-wrap items-baseline gap-1">${line}</li>`),
    '</ul>',
    `<ul class="grid gap-3" aria-label="${name} features">`,
    ...planCardFeatures(plan).map(
      (feature) =>
        `<li class="flex items-start gap-2 text-sm text-zinc-200">${CHECK}${escapeHtml(feature)}</li>`,
    ),
    '</ul></div></div></article></li>',
  ].join('');
}

/**
 * The plans as a page without scripts shows them: a card per active plan, in
 * their order, in place of the loading state (which such a page does not
 * show: web/build/prerender.ts), or a line saying there are none.
 */
export function pricingPlansHtml(plans: readonly Plan[]): string {
  if (plans.length === 0)
    return '<p class="text-center text-zinc-300">No plans are available right now. Please check back soon.</p>';
  return `<ul class="grid gap-8 md:grid-cols-3">${plans.map(planCard).join('')}</ul>`;
}

const SLOT = new RegExp(`${PRICING_PLANS_SLOT}[\\s\\S]*?</noscript>`);

/** Whether a document has the plans' slot (a pricing document built since decision 038). */
export const hasPlansSlot = (page: string): boolean => SLOT.test(page);

/** The pricing document with `plans` in its slot (whatever the slot held before); a document without one as it is. */
export function fillPricingPage(page: string, plans: readonly Plan[]): string {
  return page.replace(SLOT, () => `${PRICING_PLANS_SLOT}${pricingPlansHtml(plans)}</noscript>`);
}

/** How often the document is written again because the plans changed while it was written. */
const SETTLE_ATTEMPTS = 3;

/**
 * Brings the pricing document in line with the active plans: written when
 * what its slot shows differs, left alone otherwise (so a write that itself
 * announces a new document ends there). After a write the plans are read
 * again, and one changed meanwhile (another administrator's save) is written
 * too, so of two changes at once the document ends with the one stored last.
 */
export async function refreshPricingPage(
  deps: PricingPageDeps,
): Promise<'written' | 'unchanged' | 'no-document'> {
  let outcome: 'written' | 'unchanged' = 'unchanged';
  for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt += 1) {
    const page = await deps.page.read();
    if (page === undefined || !hasPlansSlot(page)) return 'no-document';
    const filled = fillPricingPage(page, await listActivePlans(deps.plans));
    if (filled === page) return outcome;
    await deps.page.write(filled);
    outcome = 'written';
  }
  return outcome;
}

/** Told when the document could not be brought in line after a change that stands (the next change or deploy mends it). */
export type PricingRefreshFailure = (error: unknown) => void;

/**
 * After a change to the plans that stands: the pricing document follows. A
 * failure is reported, not thrown: the change is made, and the document
 * lags until the next change or deploy.
 */
export async function followPlans(deps: PricingPageDeps, onFailure: PricingRefreshFailure): Promise<void> {
  try {
    await refreshPricingPage(deps);
  } catch (error) {
    onFailure(error);
  }
}
