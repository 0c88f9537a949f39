/** Business constants from the product specification (spec 1 section 9, spec 2 section 9). */

export const HOME_GALLERY_LIMIT = 6;
export const PUBLIC_TRACKS_PAGE_SIZE = 24;

export const DURATION_MIN_SECONDS = 5;
export const DURATION_MAX_SECONDS = 240;
export const DURATION_DEFAULT_SECONDS = 60;

export const STATUS_POLL_INTERVAL_MS = 3000;
export const AUTH_CACHE_MS = 300_000;
export const UNAUTHORIZED_REDIRECT_MS = 500;
export const CONTACT_SUCCESS_DELAY_MS = 1000;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

export const PASSWORD_MIN_LENGTH = 8;
/**
 * Administrators' passwords: longer than the spec's 6 (decision 036), and the
 * second factor (a TOTP authenticator) is asked for on every sign-in.
 */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;
/** Digits of an authenticator's code (RFC 6238 as Cognito uses it: SHA-1, 30 seconds). */
export const TOTP_CODE_LENGTH = 6;
export const TITLE_MAX_LENGTH = 100;
export const LYRICS_PREVIEW_LENGTH = 100;

export const UPLOAD_MAX_BYTES = 50_485_760;
export const UPLOAD_EXTENSIONS = ['.mp3', '.wav', '.m4a', '.aac', '.ogg'] as const;

export const BILLING_CYCLES = ['weekly', 'monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

/** Where a user's plan stands (spec 1 section 3); a value of its own, apart from the schemas that name it. */
export const planStatuses = ['free', 'active', 'cancelled', 'inactive', 'expired'] as const;
export type PlanStatus = (typeof planStatuses)[number];

/** Weeks per month used when comparing monthly and weekly prices (spec 1, Pricing). */
export const WEEKS_PER_MONTH = 4;

export const SUPPORT_HOURS = 'Monday to Friday, 9 AM to 6 PM EST';

/** Where a user who already has a subscription manages it (the 409 of `create-checkout-session` names it). */
export const MANAGE_BILLING_PATH = '/profile';
/** Pricing's "Switch to Free" for a subscriber: the profile says how (cancelling), beside the button. */
export const SWITCH_TO_FREE_PATH = '/profile?switch=free';
