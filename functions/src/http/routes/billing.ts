import { checkoutRequestSchema, portalRequestSchema } from '@tunesmith/shared/billing';
import type { User } from '../../domain/accounts/user';
import {
  type BillingLog,
  cancelSubscription,
  openPortal,
  startCheckout,
} from '../../domain/billing/billing-service';
import type { BillingDeps } from '../../domain/billing/ports';
import type { GroupHandlers } from '../group-handler';
import { readJson } from '../request';
import { json } from '../responses';

export interface BillingRouteDeps {
  billing: BillingDeps & { log?: BillingLog };
  /** The site's origin, where Stripe sends the browser back to. */
  origin: () => string;
}

/** Checkout, the customer portal and cancelling, for the signed-in user. */
export function billingRoutes({ billing, origin }: BillingRouteDeps): GroupHandlers {
  return {
    createCheckoutSession: async (event, ctx) => {
      const input = readJson(event, checkoutRequestSchema);
      return json(200, await startCheckout(billing, ctx.user as User, input, origin()));
    },

    createPortalSession: async (event, ctx) =>
      json(200, await openPortal(billing, ctx.user as User, origin(), readJson(event, portalRequestSchema))),

    cancelSubscription: async (_event, ctx) => json(200, await cancelSubscription(billing, ctx.user as User)),
  };
}
