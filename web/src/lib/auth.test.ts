import { describe, expect, it, vi } from 'vitest';
import { signedInUser } from '@/testing/fixtures';
import { anonymous, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { getUser, userDisplayName } from './auth';

describe('getUser', () => {
  it('returns the signed-in user', async () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(signedInUser) });

    expect(await getUser()).toEqual(signedInUser);
  });

  it('treats a 401 as a visitor without logging', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/auth/user': anonymous() });

    expect(await getUser()).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('treats any other failure as a visitor and logs it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/auth/user': jsonResponse({ message: 'Not implemented yet' }, 501) });
    expect(await getUser()).toBeNull();

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    expect(await getUser()).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('userDisplayName', () => {
  it('prefers the first name, then the email, then User', () => {
    expect(userDisplayName({ firstName: 'Ada', email: 'ada@example.com' })).toBe('Ada');
    expect(userDisplayName({ firstName: null, email: 'ada@example.com' })).toBe('ada@example.com');
    expect(userDisplayName({ firstName: ' ', email: '' })).toBe('User');
  });
});
