import { beforeEach, describe, expect, it } from 'vitest';
import { recordLocalStorage } from '@/testing/storage';
import {
  FIRST_SESSION_KEY,
  isFirstSession,
  NEW_ACCOUNT_MS,
  noteSignIn,
  SIGNED_IN_KEY,
} from './first-sign-in';

const now = Date.parse('2024-03-01T12:00:00.000Z');
const newAccount = { id: 'user-1', createdAt: '2024-03-01T11:50:00.000Z' };

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('first sign-in', () => {
  it('is the first sign-in of a new account on this browser, and only the first', () => {
    const storage = recordLocalStorage();

    expect(noteSignIn(newAccount, now)).toBe(true);
    expect(isFirstSession(newAccount)).toBe(true);
    expect(isFirstSession({ id: 'someone-else' })).toBe(false);
    expect(JSON.parse(storage.data.get(SIGNED_IN_KEY) ?? '')).toEqual(['user-1']);

    expect(noteSignIn(newAccount, now + 60_000)).toBe(false);
    expect(isFirstSession(newAccount)).toBe(false);
    expect(window.sessionStorage.getItem(FIRST_SESSION_KEY)).toBeNull();
  });

  it('greets an older account as returning, even on a browser it has not used', () => {
    recordLocalStorage();
    const created = new Date(now - NEW_ACCOUNT_MS - 1).toISOString();

    expect(noteSignIn({ id: 'user-2', createdAt: created }, now)).toBe(false);
    expect(isFirstSession({ id: 'user-2' })).toBe(false);
  });

  it('counts a user it cannot place as returning', () => {
    recordLocalStorage({ [SIGNED_IN_KEY]: 'not json' });

    expect(noteSignIn(undefined, now)).toBe(false);
    expect(noteSignIn({ id: 'user-3' }, now)).toBe(false);
    expect(noteSignIn({ id: 'user-4', createdAt: 'yesterday' }, now)).toBe(false);
    expect(noteSignIn(newAccount, now)).toBe(true);
  });
});
