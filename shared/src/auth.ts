import * as z from 'zod/mini';
import { authMessages } from './auth-messages';
import {
  ADMIN_PASSWORD_MIN_LENGTH,
  BILLING_CYCLES,
  PASSWORD_MIN_LENGTH,
  planStatuses,
  TOTP_CODE_LENGTH,
} from './constants';
import './schema-messages';

export { authMessages } from './auth-messages';

const email = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.email(authMessages.emailInvalid),
    z.maxLength(254, authMessages.emailInvalid),
  );

export const loginSchema = z.object({
  email,
  password: z.string().check(z.minLength(1, authMessages.passwordRequired), z.maxLength(256)),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z
  .object({
    firstName: z.string().check(z.trim(), z.minLength(1, authMessages.firstNameRequired), z.maxLength(100)),
    lastName: z.string().check(z.trim(), z.minLength(1, authMessages.lastNameRequired), z.maxLength(100)),
    email,
    password: z.string().check(z.minLength(PASSWORD_MIN_LENGTH, authMessages.passwordMin), z.maxLength(256)),
    confirmPassword: z.string().check(z.minLength(1, authMessages.confirmRequired)),
  })
  .check(
    z.refine((v) => v.password === v.confirmPassword, {
      message: authMessages.passwordsDontMatch,
      path: ['confirmPassword'],
    }),
  );
export type RegisterInput = z.infer<typeof registerSchema>;

export const emailOnlySchema = z.object({ email });

export const resendVerificationSchema = z.object({
  email: z.pipe(
    z
      .string()
      .check(
        z.trim(),
        z.toLowerCase(),
        z.minLength(1, 'Please enter your email address to resend verification.'),
      ),
    email,
  ),
});

export const resetPasswordSchema = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(200)),
  newPassword: z.string().check(z.minLength(PASSWORD_MIN_LENGTH, authMessages.passwordMin), z.maxLength(256)),
});

/** The reset-password screen's form (the confirmation never leaves the browser). */
export const resetPasswordFormSchema = z
  .object({
    password: z.string().check(z.minLength(PASSWORD_MIN_LENGTH, authMessages.passwordMin)),
    confirmPassword: z.string().check(z.minLength(1, authMessages.confirmRequired)),
  })
  .check(
    z.refine((v) => v.password === v.confirmPassword, {
      message: authMessages.passwordsDontMatch,
      path: ['confirmPassword'],
    }),
  );

export const updateEmailSchema = z.object({
  newEmail: email,
  currentPassword: z
    .string({ error: authMessages.currentPasswordRequired })
    .check(z.minLength(1, authMessages.currentPasswordRequired), z.maxLength(256)),
});

export const updatePasswordSchema = z.object({
  currentPassword: z.string().check(z.minLength(1, authMessages.currentPasswordRequired), z.maxLength(256)),
  newPassword: z
    .string()
    .check(z.minLength(PASSWORD_MIN_LENGTH, authMessages.passwordTooShort), z.maxLength(256)),
});

export const adminLoginSchema = z.object({
  username: z.string().check(z.trim(), z.minLength(1, authMessages.usernameRequired), z.maxLength(128)),
  password: z.string().check(z.minLength(1, authMessages.passwordRequired), z.maxLength(256)),
});

/**
 * The code of an administrator's authenticator app: six digits, typed with or
 * without the space most apps show in the middle.
 */
export const adminCodeSchema = z.object({
  code: z.pipe(
    z.pipe(
      z.string({ error: authMessages.codeRequired }),
      z.transform((value: string) => value.replace(/[\s-]/g, '')),
    ),
    z
      .string()
      .check(
        z.minLength(1, authMessages.codeRequired),
        z.regex(new RegExp(`^\\d{${TOTP_CODE_LENGTH}}$`), authMessages.codeInvalid),
      ),
  ),
});
export type AdminCodeInput = z.input<typeof adminCodeSchema>;

/**
 * What `POST /api/admin/login` answers for a right password: the second
 * factor comes next, in a short-lived HttpOnly cookie of its own. `setup`: the
 * administrator has no authenticator yet, so the answer carries the new key
 * (base32) and its `otpauth://` URI for a QR code; `code`: the authenticator's
 * code is asked for.
 */
export const adminSecondFactorSchema = z.discriminatedUnion('secondFactor', [
  z.object({ secondFactor: z.literal('setup'), secret: z.string(), otpauthUri: z.string() }),
  z.object({ secondFactor: z.literal('code') }),
]);
export type AdminSecondFactor = z.infer<typeof adminSecondFactorSchema>;

export const adminChangePasswordSchema = z
  .object({
    currentPassword: z.string().check(z.minLength(1, authMessages.currentPasswordRequired), z.maxLength(256)),
    newPassword: z
      .string()
      .check(z.minLength(ADMIN_PASSWORD_MIN_LENGTH, authMessages.adminPasswordMin), z.maxLength(256)),
    confirmPassword: z.string(),
  })
  .check(
    z.refine((v) => v.newPassword === v.confirmPassword, {
      message: authMessages.adminPasswordsDontMatch,
      path: ['confirmPassword'],
    }),
  );

export { type PlanStatus, planStatuses } from './constants';

/** What a user's plan allows now: the server's one rule, shown by the screens. */
export const entitlementsSchema = z.object({
  /** A paid plan is in force (active, or cancelled before the period ends). */
  paid: z.boolean(),
  weeklyLimit: z.int(),
  canPrivate: z.boolean(),
  canDownload: z.boolean(),
  /**
   * Stems (decision 044): the sets the plan in force separates into, and for
   * each set the active plans that do (the names its refusal gives).
   */
  stems: z.object({
    // STEM_SETS of ./stems, written out: importing it would give the sign-in code a chunk of the stems' schemas.
    sets: z.array(z.enum(['4', '6'])),
    plans: z.object({ '4': z.array(z.string()), '6': z.array(z.string()) }),
  }),
});
export type Entitlements = z.infer<typeof entitlementsSchema>;

/** The signed-in user as the client sees it (spec 1 section 3). */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  emailVerified: z.boolean(),
  planStatus: z.enum(planStatuses),
  subscriptionPlanId: z.nullable(z.string()),
  stripeSubscriptionId: z.nullable(z.string()),
  /** Generations used in the current weekly window (the spec's field name; 0 once a new week starts). */
  generationsUsedThisMonth: z.int(),
  /** Start and end of the subscription's current paid period (ISO). */
  planStartDate: z.nullable(z.string()),
  planEndDate: z.nullable(z.string()),
  createdAt: z.string(),
  /** The name of the subscribed plan, or null on the free plan. */
  planName: z.nullable(z.string()),
  /** The billing cycle of the subscription, or null without one. */
  billingCycle: z.nullable(z.enum(BILLING_CYCLES)),
  /**
   * The plan was given by an administrator, with no Stripe subscription
   * behind it: nothing is billed, and nothing can be changed in the portal.
   */
  planGrantedBySite: z.boolean(),
  /** Stripe knows this user as a customer, so the customer portal (Manage Billing) opens. */
  hasBillingAccount: z.boolean(),
  /**
   * Stripe has held a subscription for this user, so the portal has invoices
   * to show (the profile's Billing History when no subscription runs).
   */
  hasBillingHistory: z.boolean(),
  /** What the plan allows right now, as the server enforces it; the screens follow it. */
  entitlements: entitlementsSchema,
  /** When the weekly count starts again (ISO, Monday 00:00 UTC). */
  quotaResetsAt: z.string(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const currentAdminSchema = z.object({ username: z.string(), role: z.string() });
export type CurrentAdmin = z.infer<typeof currentAdminSchema>;
