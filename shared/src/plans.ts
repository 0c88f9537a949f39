import * as z from 'zod/mini';
import { BILLING_CYCLES } from './constants';
import './schema-messages';

/** A subscription plan as the API returns it (spec 1 section 3, spec 2 section 3). */
export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  weeklyPrice: z.number(),
  monthlyPrice: z.number(),
  yearlyPrice: z.number(),
  weeklyPriceId: z.nullable(z.string()),
  monthlyPriceId: z.nullable(z.string()),
  yearlyPriceId: z.nullable(z.string()),
  maxGenerations: z.int(),
  generationsNumber: z.int(),
  /** A list; older records may hold a JSON string or a newline-separated string. */
  features: z.union([z.array(z.string()), z.string()]),
  isActive: z.boolean(),
  /** Tracks made on this plan may be used commercially (written into each track at creation). */
  commercialUse: z._default(z.boolean(), false),
  /** The plan separates tracks into 4 stems (decision 044; on when absent: every plan did at the start). */
  stemsFour: z._default(z.boolean(), true),
  /** The plan separates tracks into 6 stems (off when absent). */
  stemsSix: z._default(z.boolean(), false),
  /** The plan may use the developer API, `/api/v1` (decision 052; on when absent: every plan had it at the start). */
  apiAccess: z._default(z.boolean(), true),
  sortOrder: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Plan = z.infer<typeof planSchema>;

export const planListSchema = z.array(planSchema);

export {
  isFreePlan,
  planFeatures,
  planPrice,
  planPriceId,
  planSavingsPercent,
  planTagline,
} from './plan-values';

export const billingCycleSchema = z.enum(BILLING_CYCLES);
