/**
 * The admin area's calls (spec 2 section 7): request schemas with the spec's
 * messages, response shapes, and the toasts of its error catalogue (section 8).
 * The API validates with these schemas and the admin screens' forms use them.
 */
import * as z from 'zod/mini';
import { auditEntrySchema } from './audit';
import { entitlementsSchema, planStatuses } from './auth';
import { TITLE_MAX_LENGTH } from './constants';
import { generationMessages } from './generations';
import { modelUsageSchema } from './model-settings';
import { planSchema } from './plans';
import './schema-messages';
import { type SettingKey, SITE_NAME_MAX_LENGTH, settingKeys } from './settings';
import { trackSchema, trackStatuses, visibilities } from './tracks';

export { ADMIN_RECENT_ACTIVITY, type AuditEntry, auditEntrySchema } from './audit';

export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE_SIZE = 100;

/** Server messages of the admin calls (the spec's where it has them). */
export const adminMessages = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  emailInvalid: 'Invalid email address',
  noChanges: 'No changes made',
  userNotFound: 'User not found',
  userUpdated: 'User updated',
  userDeleted: 'User deleted',
  planUpdated: 'Plan updated',
  planNotFound: 'Plan not found',
  planInactive: 'Only active plans can be assigned.',
  planStatusForPlan: 'Choose Active, Expired or Cancelled for a plan.',
  planStatusFree: 'The Free plan has no status other than free.',
  paysThroughStripe:
    'This user pays through Stripe. Their plan follows the subscription: change or cancel it in Stripe first.',
  planNameRequired: 'Name is required',
  planGenerationsMin: 'Max generations must be at least 1',
  planGenerationsNumberMin: 'Generations number must be at least 1',
  planWholeNumber: 'Must be a whole number',
  planPriceInvalid: 'Prices must be numbers of at most 10 digits with 2 decimals.',
  planSortOrderInvalid: 'Sort order must be a whole number from 0 to 999999.',
  planInUse: (count: number) =>
    `${count === 1 ? 'A user is' : 'Users are'} on this plan. Move them to another plan, or deactivate it instead.`,
  freePlanUndeletable: 'The Free plan cannot be deleted.',
  freePlanStaysActive: 'The Free plan cannot be deactivated.',
  planDeleted: 'Plan deleted',
  trackNotFound: 'Track not found',
  galleryNeedsPublicCompleted: 'Only public, completed tracks can be shown in or hidden from the gallery.',
  trackNotReady: 'Track is not ready for download.',
  trackDeleted: 'Track deleted',
  unknownSetting: 'Unknown setting',
  settingEmailInvalid: 'Invalid email address',
  settingRequired: 'This setting cannot be empty.',
  settingTooLong: 'This value is too long.',
  siteNameFormat: `The site name must be one line of at most ${SITE_NAME_MAX_LENGTH} characters.`,
  publishableKeyFormat:
    'A publishable key starts with pk_test_ or pk_live_, followed by letters and digits. Copy it whole from the Stripe dashboard (Developers, API keys).',
  secretKeyFormat:
    'A secret key starts with sk_test_ or sk_live_ (a restricted key with rk_test_ or rk_live_), followed by letters and digits. Copy it whole from the Stripe dashboard (Developers, API keys).',
  webhookSecretFormat:
    "A webhook signing secret starts with whsec_. Copy it whole from the webhook endpoint's page in the Stripe dashboard.",
  /** Stripe answered the key check with an authentication error (400; nothing stored). */
  stripeKeyRefused:
    'Stripe refused this secret key: it is not a key of any Stripe account, or it was revoked. Nothing was saved.',
  /** Stripe could not be asked (503; nothing stored). */
  stripeKeyUnchecked:
    'Stripe could not be reached to check this secret key, so it was not saved. Please try again in a few minutes.',
  settingSaved: 'Setting saved',
} as const;

/** Toast texts of the admin screens, verbatim from spec 2 section 8. */
export const adminToasts = {
  loginFailed: 'Login failed',
  loginSuccess: 'Login successful',
  loginSuccessText: 'Welcome to the admin dashboard',
  logoutFailed: 'Logout failed',
  updateFailed: 'Update Failed',
  failedUpdateUser: 'Failed to update user',
  failedUpdatePlan: 'Failed to update user plan',
  failedUpdateVerification: 'Failed to update email verification status',
  deleteFailed: 'Delete Failed',
  failedDeleteUser: 'Failed to delete user',
  userUpdated: 'User Updated',
  planUpdated: 'Plan Updated',
  emailStatusUpdated: 'Email Status Updated',
  userDeleted: 'User Deleted',
  error: 'Error',
  failedCreatePlan: 'Failed to create subscription plan',
  failedUpdatePlanRecord: 'Failed to update subscription plan',
  failedDeletePlan: 'Failed to delete subscription plan',
  failedUpdateSetting: 'Failed to update setting',
  failedUpdatePassword: 'Failed to update password',
  failedTrackVisibility: 'Failed to update track visibility.',
  failedTrackTitle: 'Failed to update track title.',
  failedDeleteTrack: 'Failed to delete track.',
  downloadFailed: 'Download Failed',
  trackNotReady: 'Track is not ready for download.',
  failedDownload: 'Failed to download the track.',
} as const;

/** `?cursor=&limit=` of the paginated admin lists. */
const pageQuery = {
  cursor: z.optional(z.string().check(z.maxLength(2048))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(ADMIN_MAX_PAGE_SIZE)), ADMIN_PAGE_SIZE),
};

const searchText = z.optional(
  z.pipe(
    z.string().check(z.trim(), z.maxLength(100)),
    z.transform((q: string) => q.toLowerCase()),
  ),
);

// ---- dashboard -------------------------------------------------------------

export const dashboardStatsSchema = z.object({
  totalUsers: z.int(),
  totalGenerations: z.int(),
  publicTracks: z.int(),
  privateTracks: z.int(),
  newUsersToday: z.int(),
  generationsToday: z.int(),
  /** The UTC day (yyyy-mm-dd) that "today" means. */
  day: z.string(),
  recentActivity: z.array(auditEntrySchema),
  /** This week's generations and provider spend per model (decision 051); absent from older answers. */
  models: z.optional(z.array(modelUsageSchema)),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

// ---- users -------------------------------------------------------------------

export const adminUserListQuerySchema = z.object({ q: searchText, ...pageQuery });
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailVerified: z.boolean(),
  planStatus: z.enum(planStatuses),
  subscriptionPlanId: z.nullable(z.string()),
  subscriptionPlan: z.nullable(z.object({ name: z.string(), maxGenerations: z.int() })),
  /** Generations used in the current weekly quota window. */
  generationCount: z.int(),
  planStartDate: z.nullable(z.string()),
  planEndDate: z.nullable(z.string()),
  /** Whether a Stripe subscription is running (its state then follows Stripe). */
  hasStripeSubscription: z.boolean(),
  /** What the plan allows now: the same rule as the user's own profile, generation and downloads. */
  entitlements: entitlementsSchema,
  /** Suspended after a report (decision 061): lifted from the Reports page. */
  suspended: z.optional(z.boolean()),
  createdAt: z.string(),
});
export type AdminUserView = z.infer<typeof adminUserSchema>;

export const adminUserListSchema = z.object({
  users: z.array(adminUserSchema),
  /** Every regular user, whatever the search. */
  total: z.int(),
  nextCursor: z.nullable(z.string()),
});
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const adminUpdateUserSchema = z.partial(
  z.strictObject({
    firstName: z.string().check(z.trim(), z.minLength(1, adminMessages.firstNameRequired), z.maxLength(100)),
    lastName: z.string().check(z.trim(), z.minLength(1, adminMessages.lastNameRequired), z.maxLength(100)),
    email: z
      .string()
      .check(
        z.trim(),
        z.toLowerCase(),
        z.email(adminMessages.emailInvalid),
        z.maxLength(254, adminMessages.emailInvalid),
      ),
    emailVerified: z.boolean(),
  }),
);
export type AdminUpdateUserInput = z.infer<typeof adminUpdateUserSchema>;

/** Statuses an administrator may give: free without a plan, the others with one. */
export const adminPlanStatuses = ['free', 'active', 'expired', 'cancelled'] as const;

export const adminAssignPlanSchema = z
  .object({
    planId: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    status: z.enum(adminPlanStatuses),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.planId === null && value.status !== 'free') {
        ctx.addIssue({ code: 'custom', path: ['status'], message: adminMessages.planStatusFree });
      }
      if (value.planId !== null && value.status === 'free') {
        ctx.addIssue({ code: 'custom', path: ['status'], message: adminMessages.planStatusForPlan });
      }
    }),
  );
export type AdminAssignPlanInput = z.infer<typeof adminAssignPlanSchema>;

// ---- plans -------------------------------------------------------------------

/** Largest price with 10 digits of which 2 are decimals. */
export const PLAN_PRICE_MAX = 99_999_999.99;
export const PLAN_SORT_ORDER_MAX = 999_999;

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** A form's text or a JSON number; empty gives the fallback. */
/** `check` applied to a value first read by `read` (what zod's full build calls preprocess). */
const preprocess = <T extends z.ZodMiniType>(read: (value: unknown) => unknown, check: T) =>
  z.pipe(z.transform(read), check);

const numberOr = (fallback: number, ...checks: z.core.$ZodCheck<number>[]) =>
  preprocess(
    (value) => (blank(value) ? fallback : typeof value === 'string' ? Number(value.trim()) : value),
    z.number({ error: adminMessages.planPriceInvalid }).check(...checks),
  );

const price = numberOr(
  0,
  z.refine(
    (n) =>
      Number.isFinite(n) && n >= 0 && n <= PLAN_PRICE_MAX && Math.abs(Math.round(n * 100) - n * 100) < 1e-6,
    adminMessages.planPriceInvalid,
  ),
);

const generations = (message: string) =>
  numberOr(
    5,
    z.refine((n) => Number.isInteger(n), adminMessages.planWholeNumber),
    z.refine((n) => n >= 1, message),
    z.refine((n) => n <= 1_000_000, 'Must be at most 1000000'),
  );

const priceId = preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z._default(z.nullable(z.string().check(z.trim(), z.maxLength(255))), null),
);

/** Features as a list; a newline-separated text (the form's textarea) is split into lines. */
const features = preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      : value,
  z._default(
    z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.maxLength(50)),
    [],
  ),
);

export const planInputSchema = z.object({
  name: z
    .string({ error: adminMessages.planNameRequired })
    .check(z.trim(), z.minLength(1, adminMessages.planNameRequired), z.maxLength(100)),
  description: preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    z._default(z.nullable(z.string().check(z.trim(), z.maxLength(2000))), null),
  ),
  features,
  weeklyPrice: price,
  monthlyPrice: price,
  yearlyPrice: price,
  weeklyPriceId: priceId,
  monthlyPriceId: priceId,
  yearlyPriceId: priceId,
  maxGenerations: generations(adminMessages.planGenerationsMin),
  generationsNumber: generations(adminMessages.planGenerationsNumberMin),
  sortOrder: numberOr(
    0,
    z.refine(
      (n) => Number.isInteger(n) && n >= 0 && n <= PLAN_SORT_ORDER_MAX,
      adminMessages.planSortOrderInvalid,
    ),
  ),
  isActive: z._default(z.boolean(), true),
  commercialUse: z._default(z.boolean(), false),
  stemsFour: z._default(z.boolean(), true),
  stemsSix: z._default(z.boolean(), false),
  apiAccess: z._default(z.boolean(), true),
});
export type PlanInput = z.infer<typeof planInputSchema>;
/** What a plan form holds before it is parsed (text fields for numbers). */
export type PlanFormValues = z.input<typeof planInputSchema>;

export const adminPlanListSchema = z.array(planSchema);

// ---- tracks ------------------------------------------------------------------

export const adminTrackListQuerySchema = z.object({
  q: searchText,
  status: z.optional(z.enum(trackStatuses)),
  visibility: z.optional(z.enum(visibilities)),
  ...pageQuery,
});
export type AdminTrackListQuery = z.infer<typeof adminTrackListQuerySchema>;

export const adminTrackSchema = z.extend(trackSchema, { userId: z.string() });
export type AdminTrack = z.infer<typeof adminTrackSchema>;

export const trackCountsSchema = z.object({
  total: z.int(),
  public: z.int(),
  /** Public tracks not hidden by an administrator. */
  galleryVisible: z.int(),
  /** Public tracks an administrator hid from the gallery. */
  hiddenFromGallery: z.int(),
});
export type TrackCounts = z.infer<typeof trackCountsSchema>;

export const adminTrackListSchema = z.object({
  tracks: z.array(adminTrackSchema),
  counts: trackCountsSchema,
  nextCursor: z.nullable(z.string()),
});
export type AdminTrackList = z.infer<typeof adminTrackListSchema>;

export const galleryVisibilitySchema = z.strictObject({ showInGallery: z.boolean() });

export const adminTrackTitleSchema = z.object({
  title: z
    .string({ error: generationMessages.titleEmpty })
    .check(
      z.trim(),
      z.minLength(1, generationMessages.titleEmpty),
      z.maxLength(TITLE_MAX_LENGTH, generationMessages.titleTooLong),
    ),
});

export const adminDownloadSchema = z.object({ url: z.string(), filename: z.string() });

// ---- settings ----------------------------------------------------------------

export const SETTING_VALUE_MAX = 2000;

export const adminSettingSchema = z.object({
  key: z.enum(settingKeys),
  /** The value; always empty for a secret. */
  value: z.string(),
  secret: z.boolean(),
  /** Whether a value is stored (for secrets, the only thing said about them). */
  isSet: z.boolean(),
  description: z.string(),
  type: z.string(),
  category: z.string(),
  updatedAt: z.nullable(z.string()),
});
export type AdminSetting = z.infer<typeof adminSettingSchema>;
export const adminSettingListSchema = z.array(adminSettingSchema);

const emailSettings: readonly SettingKey[] = ['support_email', 'contact_email'];
const requiredSettings: readonly SettingKey[] = ['site_name', 'support_email', 'contact_email'];
/**
 * The form of Stripe's keys: test or live publishable keys, secret keys and
 * restricted keys, and webhook signing secrets. Whether Stripe knows a secret
 * key is checked by the server when it is saved.
 */
const keyFormats: Partial<Record<SettingKey, { pattern: RegExp; message: string }>> = {
  stripe_publishable_key: {
    pattern: /^pk_(test|live)_[A-Za-z0-9]+$/,
    message: adminMessages.publishableKeyFormat,
  },
  stripe_secret_key: {
    pattern: /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/,
    message: adminMessages.secretKeyFormat,
  },
  stripe_webhook_secret: { pattern: /^whsec_[A-Za-z0-9+/=_-]+$/, message: adminMessages.webhookSecretFormat },
};

/** One line (no control characters) of at most the allowed length. */
const isSiteName = (value: string) => value.length <= SITE_NAME_MAX_LENGTH && !/\p{Cc}/u.test(value);

export const adminUpdateSettingSchema = z
  .strictObject({
    key: z.enum(settingKeys, { error: adminMessages.unknownSetting }),
    value: z.string().check(z.trim(), z.maxLength(SETTING_VALUE_MAX, adminMessages.settingTooLong)),
  })
  .check(
    z.superRefine(({ key, value }, ctx) => {
      if (value === '') {
        if (requiredSettings.includes(key)) {
          ctx.addIssue({ code: 'custom', path: ['value'], message: adminMessages.settingRequired });
        }
        return;
      }
      if (emailSettings.includes(key) && !z.email().safeParse(value).success) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: adminMessages.settingEmailInvalid });
      }
      if (key === 'site_name' && !isSiteName(value)) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: adminMessages.siteNameFormat });
      }
      const format = keyFormats[key];
      if (format && !format.pattern.test(value)) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: format.message });
      }
    }),
  );
export type AdminUpdateSettingInput = z.infer<typeof adminUpdateSettingSchema>;
