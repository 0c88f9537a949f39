import * as z from 'zod';
import { authMessages } from './auth-messages';
import {
  ADMIN_PASSWORD_MIN_LENGTH,
  BILLING_CYCLES,
  PASSWORD_MIN_LENGTH,
  TOTP_CODE_LENGTH,
} from './constants';

export { authMessages } from './auth-messages';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .email(authMessages.emailInvalid)
  .max(254, authMessages.emailInvalid);

export const loginSchema = z.object({
  email,
  password: z.string().min(1, authMessages.passwordRequired).max(256),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z
  .object({
    firstName: z.string().trim().min(1, authMessages.firstNameRequired).max(100),
    lastName: z.string().trim().min(1, authMessages.lastNameRequired).max(100),
    email,
    password: z.string().min(PASSWORD_MIN_LENGTH, authMessages.passwordMin).max(256),
    confirmPassword: z.string().min(1, authMessages.confirmRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: authMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

export const emailOnlySchema = z.object({ email });

export const resendVerificationSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'Please enter your email address to resend verification.')
    .pipe(email),
});

export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  newPassword: z.string().min(PASSWORD_MIN_LENGTH, authMessages.passwordMin).max(256),
});

/** The reset-password screen's form (the confirmation never leaves the browser). */
export const resetPasswordFormSchema = z
  .object({
    password: z.string().min(PASSWORD_MIN_LENGTH, authMessages.passwordMin),
    confirmPassword: z.string().min(1, authMessages.confirmRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: authMessages.passwordsDontMatch,
    path: ['confirmPassword'],
  });

export const updateEmailSchema = z.object({
  newEmail: email,
  currentPassword: z
    .string({ error: authMessages.currentPasswordRequired })
    .min(1, authMessages.currentPasswordRequired)
    .max(256),
});

export const updatePasswordSchema = z.object({
  currentPassword: z.string().min(1, authMessages.currentPasswordRequired).max(256),
  newPassword: z.string().min(PASSWORD_MIN_LENGTH, authMessages.passwordTooShort).max(256),
});

export const adminLoginSchema = z.object({
  username: z.string().trim().min(1, authMessages.usernameRequired).max(128),
  password: z.string().min(1, authMessages.passwordRequired).max(256),
});

/**
 * The code of an administrator's authenticator app: six digits, typed with or
 * without the space most apps show in the middle.
 */
export const adminCodeSchema = z.object({
  code: z
    .string({ error: authMessages.codeRequired })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .min(1, authMessages.codeRequired)
        .regex(new RegExp(`^\\d{${TOTP_CODE_LENGTH}}$`), authMessages.codeInvalid),
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
    currentPassword: z.string().min(1, authMessages.currentPasswordRequired).max(256),
    newPassword: z.string().min(ADMIN_PASSWORD_MIN_LENGTH, authMessages.adminPasswordMin).max(256),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: authMessages.adminPasswordsDontMatch,
    path: ['confirmPassword'],
  });

export const planStatuses = ['free', 'active', 'cancelled', 'inactive', 'expired'] as const;
export type PlanStatus = (typeof planStatuses)[number];

/** What a user's plan allows now: the server's one rule, shown by the screens. */
export const entitlementsSchema = z.object({
  /** A paid plan is in force (active, or cancelled before the period ends). */
  paid: z.boolean(),
  weeklyLimit: z.number().int(),
  canPrivate: z.boolean(),
  canDownload: z.boolean(),
});
export type Entitlements = z.infer<typeof entitlementsSchema>;

/** The signed-in user as the client sees it (spec 1 section 3). */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  emailVerified: z.boolean(),
  planStatus: z.enum(planStatuses),
  subscriptionPlanId: z.string().nullable(),
  stripeSubscriptionId: z.string().nullable(),
  /** Generations used in the current weekly window (the spec's field name; 0 once a new week starts). */
  generationsUsedThisMonth: z.number().int(),
  /** Start and end of the subscription's current paid period (ISO). */
  planStartDate: z.string().nullable(),
  planEndDate: z.string().nullable(),
  createdAt: z.string(),
  /** The name of the subscribed plan, or null on the free plan. */
  planName: z.string().nullable(),
  /** The billing cycle of the subscription, or null without one. */
  billingCycle: z.enum(BILLING_CYCLES).nullable(),
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
