import type { User } from './auth';

/** An account this young that has not signed in on this browser yet is greeted as new. */
export const NEW_ACCOUNT_MS = 7 * 24 * 60 * 60 * 1000;
/** Users who have signed in on this browser (local storage, most recent last). */
export const SIGNED_IN_KEY = 'signedInUsers';
/** The user whose first session this tab is (session storage). */
export const FIRST_SESSION_KEY = 'firstSessionUser';
const REMEMBERED_USERS = 20;

function store(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined;
  }
}

function signedInUsers(): string[] {
  try {
    const value: unknown = JSON.parse(store('localStorage')?.getItem(SIGNED_IN_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Records a sign-in and says whether it is the user's first: a new account
 * (created within the last week) that has not signed in on this browser.
 * Anything not known (no id, no creation date, no storage) counts as returning.
 */
export function noteSignIn(user: Pick<User, 'id' | 'createdAt'> | undefined, now = Date.now()): boolean {
  const id = user?.id;
  if (!id) return false;
  const seen = signedInUsers();
  const created = user.createdAt ? Date.parse(user.createdAt) : Number.NaN;
  const first = !seen.includes(id) && Number.isFinite(created) && now - created < NEW_ACCOUNT_MS;
  try {
    const remembered = [...seen.filter((other) => other !== id), id].slice(-REMEMBERED_USERS);
    store('localStorage')?.setItem(SIGNED_IN_KEY, JSON.stringify(remembered));
    if (first) store('sessionStorage')?.setItem(FIRST_SESSION_KEY, id);
    else store('sessionStorage')?.removeItem(FIRST_SESSION_KEY);
  } catch {
    // Storage full or blocked: the next sign-in greets as returning or as new again, nothing more.
  }
  return first;
}

/** Whether this tab's session began with the user's first sign-in. */
export function isFirstSession(user: Pick<User, 'id'> | null | undefined): boolean {
  return Boolean(user?.id) && store('sessionStorage')?.getItem(FIRST_SESSION_KEY) === user?.id;
}
