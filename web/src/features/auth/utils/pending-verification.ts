import { safeReturnPath } from '@/lib/return-path';

/**
 * The address (and first name) waiting for verification, kept in local storage
 * between registration (or a refused sign-in) and the check-email page, which
 * reads and removes them.
 */
export const PENDING_EMAIL_KEY = 'pendingVerificationEmail';
export const PENDING_FIRST_NAME_KEY = 'pendingVerificationFirstName';
/**
 * Where to go after the first sign-in (a plan chosen on Pricing). Kept beside
 * the two entries above until the address is verified: the verification link
 * may open in another tab, so it is local storage, and the check-email page
 * leaves it for the verify-email page, whose Continue to Login carries it.
 */
export const PENDING_NEXT_KEY = 'pendingVerificationNext';

export interface PendingVerification {
  email: string;
  firstName: string;
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Remembers the address to verify, and where to go after signing in; a missing
 * first name or destination removes any older one.
 */
export function savePendingVerification({
  email,
  firstName,
  next,
}: {
  email: string;
  firstName?: string;
  next?: string | null;
}): void {
  const store = storage();
  if (!store) return;
  try {
    store.setItem(PENDING_EMAIL_KEY, email);
    if (firstName) store.setItem(PENDING_FIRST_NAME_KEY, firstName);
    else store.removeItem(PENDING_FIRST_NAME_KEY);
    const safeNext = safeReturnPath(next);
    if (safeNext) store.setItem(PENDING_NEXT_KEY, safeNext);
    else store.removeItem(PENDING_NEXT_KEY);
  } catch {
    // Storage full or blocked: the check-email page also receives navigation state.
  }
}

export function readPendingVerification(): PendingVerification {
  const store = storage();
  return {
    email: store?.getItem(PENDING_EMAIL_KEY) ?? '',
    firstName: store?.getItem(PENDING_FIRST_NAME_KEY) ?? '',
  };
}

/** Removes the address and first name; where to go after signing in stays until it is used. */
export function clearPendingVerification(): void {
  const store = storage();
  store?.removeItem(PENDING_EMAIL_KEY);
  store?.removeItem(PENDING_FIRST_NAME_KEY);
}

/** Where to go after the first sign-in, when a path on this site was saved. */
export function readPendingNext(): string | null {
  return safeReturnPath(storage()?.getItem(PENDING_NEXT_KEY));
}

export function clearPendingNext(): void {
  try {
    storage()?.removeItem(PENDING_NEXT_KEY);
  } catch {
    // Blocked storage holds nothing to remove.
  }
}
