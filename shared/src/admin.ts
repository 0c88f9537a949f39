/**
 * The admin area's calls (spec 2 section 7): request schemas with the spec's
 * messages, response shapes, and the toasts of its error catalogue (section 8).
 * The API validates with these schemas and the admin screens' forms use them.
 */
import * as z from 'zod';
import { entitlementsSchema, planStatuses } from './auth';
import { TITLE_MAX_LENGTH } from './constants';
import { generationMessages } from './generations';
import { planSchema } from './plans';
import { type SettingKey, SITE_NAME_MAX_LENGTH, settingKeys } from './settings';
import { trackSchema, trackStatuses, visibilities } from './tracks';

export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_RECENT_ACTIVITY = 10;

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
  cursor: z.string().max(2048).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_MAX_PAGE_SIZE).default(ADMIN_PAGE_SIZE),
};

const searchText = z
  .string()
  .trim()
  .max(100)
  .transform((q) => q.toLowerCase())
  .optional();

// ---- dashboard -------------------------------------------------------------

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The administrator's username. */
  actor: z.string(),
  /** What was done, e.g. `user.update`, `plan.create`, `setting.update`. */
  action: z.string(),
  /** What it was done to: a user, plan or track id, or a setting key. */
  target: z.string(),
  /** One line for the activity list; never a secret's value. */
  summary: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const dashboardStatsSchema = z.object({
  totalUsers: z.number().int(),
  totalGenerations: z.number().int(),
  publicTracks: z.number().int(),
  privateTracks: z.number().int(),
  newUsersToday: z.number().int(),
  generationsToday: z.number().int(),
  /** The UTC day (yyyy-mm-dd) that "today" means. */
  day: z.string(),
  recentActivity: z.array(auditEntrySchema),
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
  subscriptionPlanId: z.string().nullable(),
  subscriptionPlan: z.object({ name: z.string(), maxGenerations: z.number().int() }).nullable(),
  /** Generations used in the current weekly quota window. */
  generationCount: z.number().int(),
  planStartDate: z.string().nullable(),
  planEndDate: z.string().nullable(),
  /** Whether a Stripe subscription is running (its state then follows Stripe). */
  hasStripeSubscription: z.boolean(),
  /** What the plan allows now: the same rule as the user's own profile, generation and downloads. */
  entitlements: entitlementsSchema,
  createdAt: z.string(),
});
export type AdminUserView = z.infer<typeof adminUserSchema>;

export const adminUserListSchema = z.object({
  users: z.array(adminUserSchema),
  /** Every regular user, whatever the search. */
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const adminUpdateUserSchema = z
  .object({
    firstName: z.string().trim().min(1, adminMessages.firstNameRequired).max(100),
    lastName: z.string().trim().min(1, adminMessages.lastNameRequired).max(100),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .email(adminMessages.emailInvalid)
      .max(254, adminMessages.emailInvalid),
    emailVerified: z.boolean(),
  })
  .partial()
  .strict();
export type AdminUpdateUserInput = z.infer<typeof adminUpdateUserSchema>;

/** Statuses an administrator may give: free without a plan, the others with one. */
export const adminPlanStatuses = ['free', 'active', 'expired', 'cancelled'] as const;

export const adminAssignPlanSchema = z
  .object({
    planId: z.string().trim().min(1).max(100).nullable(),
    status: z.enum(adminPlanStatuses),
  })
  .superRefine((value, ctx) => {
    if (value.planId === null && value.status !== 'free') {
      ctx.addIssue({ code: 'custom', path: ['status'], message: adminMessages.planStatusFree });
    }
    if (value.planId !== null && value.status === 'free') {
      ctx.addIssue({ code: 'custom', path: ['status'], message: adminMessages.planStatusForPlan });
    }
  });
export type AdminAssignPlanInput = z.infer<typeof adminAssignPlanSchema>;

// ---- plans -------------------------------------------------------------------

/** Largest price with 10 digits of which 2 are decimals. */
export const PLAN_PRICE_MAX = 99_999_999.99;
export const PLAN_SORT_ORDER_MAX = 999_999;

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** A form's text or a JSON number; empty gives the fallback. */
const numberOr = (fallback: number) =>
  z.preprocess(
    (value) => (blank(value) ? fallback : typeof value === 'string' ? Number(value.trim()) : value),
    z.number({ error: adminMessages.planPriceInvalid }),
  );

const price = numberOr(0).refine(
  (n) =>
    Number.isFinite(n) && n >= 0 && n <= PLAN_PRICE_MAX && Math.abs(Math.round(n * 100) - n * 100) < 1e-6,
  adminMessages.planPriceInvalid,
);

const generations = (message: string) =>
  numberOr(5)
    .refine((n) => Number.isInteger(n), adminMessages.planWholeNumber)
    .refine((n) => n >= 1, message)
    .refine((n) => n <= 1_000_000, 'Must be at most 1000000');

const priceId = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  z.string().trim().max(255).nullable().default(null),
);

/** Features as a list; a newline-separated text (the form's textarea) is split into lines. */
const features = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      : value,
  z.array(z.string().trim().min(1).max(200)).max(50).default([]),
);

export const planInputSchema = z.object({
  name: z
    .string({ error: adminMessages.planNameRequired })
    .trim()
    .min(1, adminMessages.planNameRequired)
    .max(100),
  description: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    z.string().trim().max(2000).nullable().default(null),
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
  sortOrder: numberOr(0).refine(
    (n) => Number.isInteger(n) && n >= 0 && n <= PLAN_SORT_ORDER_MAX,
    adminMessages.planSortOrderInvalid,
  ),
  isActive: z.boolean().default(true),
  commercialUse: z.boolean().default(false),
});
export type PlanInput = z.infer<typeof planInputSchema>;
/** What a plan form holds before it is parsed (text fields for numbers). */
export type PlanFormValues = z.input<typeof planInputSchema>;

export const adminPlanListSchema = z.array(planSchema);

// ---- tracks ------------------------------------------------------------------

export const adminTrackListQuerySchema = z.object({
  q: searchText,
  status: z.enum(trackStatuses).optional(),
  visibility: z.enum(visibilities).optional(),
  ...pageQuery,
});
export type AdminTrackListQuery = z.infer<typeof adminTrackListQuerySchema>;

export const adminTrackSchema = trackSchema.extend({ userId: z.string() });
export type AdminTrack = z.infer<typeof adminTrackSchema>;

export const trackCountsSchema = z.object({
  total: z.number().int(),
  public: z.number().int(),
  /** Public tracks not hidden by an administrator. */
  galleryVisible: z.number().int(),
  /** Public tracks an administrator hid from the gallery. */
  hiddenFromGallery: z.number().int(),
});
export type TrackCounts = z.infer<typeof trackCountsSchema>;

export const adminTrackListSchema = z.object({
  tracks: z.array(adminTrackSchema),
  counts: trackCountsSchema,
  nextCursor: z.string().nullable(),
});
export type AdminTrackList = z.infer<typeof adminTrackListSchema>;

export const galleryVisibilitySchema = z.object({ showInGallery: z.boolean() }).strict();

export const adminTrackTitleSchema = z.object({
  title: z
    .string({ error: generationMessages.titleEmpty })
    .trim()
    .min(1, generationMessages.titleEmpty)
    .max(TITLE_MAX_LENGTH, generationMessages.titleTooLong),
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
  updatedAt: z.string().nullable(),
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
  .object({
    key: z.enum(settingKeys, { error: adminMessages.unknownSetting }),
    value: z.string().trim().max(SETTING_VALUE_MAX, adminMessages.settingTooLong),
  })
  .strict()
  .superRefine(({ key, value }, ctx) => {
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
  });
export type AdminUpdateSettingInput = z.infer<typeof adminUpdateSettingSchema>;
