import type { BillingCycle } from './constants';
import { WEEKS_PER_MONTH } from './constants';
import type { Plan } from './plans';

/*
 * What the pages show of a plan: its features, tagline, price and savings.
 * Free of zod (the schemas are in plans.ts), so a page that shows plans does
 * not load the schema library with them.
 */

/**
 * Normalises a plan's features, which may arrive as an array, a JSON list in a
 * string, or a newline-separated string.
 */
export function planFeatures(features: Plan['features'] | null | undefined): string[] {
  if (!features) return [];
  if (Array.isArray(features)) return features.map((f) => f.trim()).filter(Boolean);
  const text = features.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.map((f) => String(f).trim()).filter(Boolean);
    } catch {
      // not JSON: fall through to lines
    }
  }
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

const COMMERCIAL_LICENSE = 'Commercial license';
const namesCommercialUse = (feature: string) => /\bcommercial (license|use)\b/i.test(feature);

/**
 * A plan's features as its card lists them. A commercial license is promised
 * only by a plan whose tracks get one (its Commercial use switch), and named
 * once: a feature line that already says it stands; otherwise it is added.
 */
export function planCardFeatures(plan: Pick<Plan, 'features' | 'commercialUse'>): string[] {
  const listed = planFeatures(plan.features).filter(
    (feature) => plan.commercialUse || !namesCommercialUse(feature),
  );
  if (plan.commercialUse && !listed.some(namesCommercialUse)) listed.push(COMMERCIAL_LICENSE);
  return listed;
}

/** The plan badged Most Popular on Pricing (spec 1): the one named Basic. */
export const isPopularPlan = (plan: Pick<Plan, 'name'>): boolean => plan.name === 'Basic';

/** A price in US dollars: whole amounts without cents ($9), others with two decimals ($2.08). */
export function formatPrice(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}

/** The first line of a plan's description: the card's tagline. */
export function planTagline(description: string | null | undefined): string {
  return (description ?? '').split('\n')[0]?.trim() ?? '';
}

export function planPrice(
  plan: Pick<Plan, 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>,
  cycle: BillingCycle,
): number {
  return cycle === 'weekly' ? plan.weeklyPrice : cycle === 'monthly' ? plan.monthlyPrice : plan.yearlyPrice;
}

export function planPriceId(
  plan: Pick<Plan, 'weeklyPriceId' | 'monthlyPriceId' | 'yearlyPriceId'>,
  cycle: BillingCycle,
): string | null {
  return cycle === 'weekly'
    ? plan.weeklyPriceId
    : cycle === 'monthly'
      ? plan.monthlyPriceId
      : plan.yearlyPriceId;
}

export function isFreePlan(
  plan: Pick<Plan, 'name' | 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>,
): boolean {
  return (
    plan.name === 'Free' || (plan.weeklyPrice === 0 && plan.monthlyPrice === 0 && plan.yearlyPrice === 0)
  );
}

/**
 * Percentage saved by the chosen cycle against the next shorter one, per the
 * spec: yearly = round((1 - yearly / (monthly * 12)) * 100); monthly against
 * weekly uses 4 weeks per month. Null when there is nothing to save.
 */
export function planSavingsPercent(
  plan: Pick<Plan, 'weeklyPrice' | 'monthlyPrice' | 'yearlyPrice'>,
  cycle: BillingCycle,
): number | null {
  let savings: number | null = null;
  if (cycle === 'yearly' && plan.monthlyPrice > 0 && plan.yearlyPrice > 0) {
    savings = Math.round((1 - plan.yearlyPrice / (plan.monthlyPrice * 12)) * 100);
  } else if (cycle === 'monthly' && plan.weeklyPrice > 0 && plan.monthlyPrice > 0) {
    savings = Math.round((1 - plan.monthlyPrice / (plan.weeklyPrice * WEEKS_PER_MONTH)) * 100);
  }
  return savings !== null && savings > 0 ? savings : null;
}

/** What paying ends for someone whose plan the site granted: the two plans, and when the grant would end. */
export interface GrantEndsNotice {
  siteName: string;
  granted: PlanTerms;
  chosen: PlanTerms;
  /** The grant's own end, as the reader sees dates; absent when it runs until changed. */
  until?: string | null;
}

/** The terms of a plan that paying for another one changes. */
export interface PlanTerms {
  name: string;
  weeklyLimit: number;
  commercialUse: boolean;
}

/**
 * What Checkout answers (409, with `grantedPlanId`) while a plan the site
 * granted is in force and the request has not agreed to end it, and what
 * Pricing's dialog says before it asks, in plain words: 'Your Premium plan
 * was granted by Tunesmith at no charge. Paying for Basic ends it now: your
 * weekly limit goes from 100 to 30, and new tracks no longer come with a
 * commercial license.'
 */
export function grantEndsNotice({ siteName, granted, chosen, until }: GrantEndsNotice): string {
  const limit =
    granted.weeklyLimit === chosen.weeklyLimit
      ? `your weekly limit stays at ${granted.weeklyLimit}`
      : `your weekly limit goes from ${granted.weeklyLimit} to ${chosen.weeklyLimit}`;
  const license =
    granted.commercialUse && !chosen.commercialUse
      ? ', and new tracks no longer come with a commercial license'
      : '';
  return (
    `Your ${granted.name} plan was granted by ${siteName} at no charge${until ? ` until ${until}` : ''}. ` +
    `Paying for ${chosen.name} ends it now: ${limit}${license}.`
  );
}
