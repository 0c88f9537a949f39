/**
 * The address (and first name) waiting for verification, kept in local storage
 * between registration (or a refused sign-in) and the check-email page, which
 * reads and removes them.
 */
export const PENDING_EMAIL_KEY = 'pendingVerificationEmail';
export const PENDING_FIRST_NAME_KEY = 'pendingVerificationFirstName';

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

/** Remembers the address to verify; a missing first name removes any older one. */
export function savePendingVerification({ email, firstName }: { email: string; firstName?: string }): void {
  const store = storage();
  if (!store) return;
  try {
    store.setItem(PENDING_EMAIL_KEY, email);
    if (firstName) store.setItem(PENDING_FIRST_NAME_KEY, firstName);
    else store.removeItem(PENDING_FIRST_NAME_KEY);
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

export function clearPendingVerification(): void {
  const store = storage();
  store?.removeItem(PENDING_EMAIL_KEY);
  store?.removeItem(PENDING_FIRST_NAME_KEY);
}
