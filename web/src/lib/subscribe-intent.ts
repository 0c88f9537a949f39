import { BILLING_CYCLES, type BillingCycle } from '@tunesmith/shared/constants';
import { safeReturnPath } from './return-path';

/** A plan and billing cycle a visitor chose on Pricing, kept while they sign in or sign up. */
export interface SubscribeIntent {
  planId: string;
  cycle: BillingCycle;
}

const PRICING_PATH = '/pricing';
const PLAN_PARAM = 'subscribe';
const CYCLE_PARAM = 'cycle';
/** Plan ids are short; the server refuses longer ones too. */
const MAX_PLAN_ID_LENGTH = 100;

/** Where Pricing starts Checkout for the intent once the person is signed in. */
export function subscribeIntentPath({ planId, cycle }: SubscribeIntent): string {
  return `${PRICING_PATH}?${new URLSearchParams({ [PLAN_PARAM]: planId, [CYCLE_PARAM]: cycle })}`;
}

/** The intent in Pricing's search parameters, or null when there is none (or it is malformed). */
export function readSubscribeIntent(params: URLSearchParams): SubscribeIntent | null {
  const planId = params.get(PLAN_PARAM)?.trim() ?? '';
  const cycle = params.get(CYCLE_PARAM);
  if (!planId || planId.length > MAX_PLAN_ID_LENGTH) return null;
  if (!BILLING_CYCLES.includes(cycle as BillingCycle)) return null;
  return { planId, cycle: cycle as BillingCycle };
}

/** The intent a return path carries (a safe path to Pricing with one), or null. */
export function subscribeIntentOf(path: string | null | undefined): SubscribeIntent | null {
  const safe = safeReturnPath(path);
  if (!safe) return null;
  const url = new URL(safe, window.location.origin);
  return url.pathname === PRICING_PATH ? readSubscribeIntent(url.searchParams) : null;
}

/** Pricing's search parameters without the intent (once it has been acted on). */
export function withoutSubscribeIntent(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(PLAN_PARAM);
  next.delete(CYCLE_PARAM);
  return next;
}
