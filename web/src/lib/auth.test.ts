import { describe, expect, it, vi } from 'vitest';
import { makeSubscriber, makeUser, paidStems, seedStems, signedInUser } from '@/testing/fixtures';
import { anonymous, jsonResponse, mockFetch } from '@/testing/mock-fetch';
import {
  canDownloadTracks,
  canMakeTracksPrivate,
  clearSignedInHint,
  getUser,
  hasSignedInHint,
  userDisplayName,
} from './auth';

describe('getUser', () => {
  it('returns the signed-in user', async () => {
    mockFetch({ 'GET /api/auth/user': jsonResponse(signedInUser) });

    expect(await getUser()).toEqual(signedInUser);
  });

  it('treats a 401 as a visitor without logging, and forgets the signed-in hint', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/auth/user': anonymous() });
    expect(hasSignedInHint()).toBe(true);

    expect(await getUser()).toBeNull();
    expect(warn).not.toHaveBeenCalled();
    expect(hasSignedInHint()).toBe(false);
  });

  it('asks nothing for a visitor without the signed-in hint', async () => {
    clearSignedInHint();
    const fetchMock = mockFetch({});

    expect(await getUser()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reads the hint by its https name too', () => {
    const cookie = vi.spyOn(document, 'cookie', 'get');
    cookie.mockReturnValue('theme=dark; __Host-ts_signed_in=1');
    expect(hasSignedInHint()).toBe(true);
    cookie.mockReturnValue('theme=dark; not_ts_signed_in=1');
    expect(hasSignedInHint()).toBe(false);
    cookie.mockRestore();
  });
});

describe('userDisplayName', () => {
  it('prefers the first name, then the email, then User', () => {
    expect(userDisplayName({ firstName: 'Ada', email: 'ada@example.com' })).toBe('Ada');
    expect(userDisplayName({ firstName: null, email: 'ada@example.com' })).toBe('ada@example.com');
    expect(userDisplayName({ firstName: ' ', email: '' })).toBe('User');
  });
});

describe('canDownloadTracks and canMakeTracksPrivate', () => {
  const entitled = (user: Parameters<typeof canDownloadTracks>[0]) => [
    canDownloadTracks(user),
    canMakeTracksPrivate(user),
  ];

  it("follow the server's entitlements, not the plan status", () => {
    expect(entitled(makeSubscriber())).toEqual([true, true]);
    // Cancelled inside the paid period: the plan still counts.
    expect(entitled(makeSubscriber({ planStatus: 'cancelled' }))).toEqual([true, true]);
    // A failed payment, an ended plan, the free plan: no.
    expect(entitled(makeSubscriber({ planStatus: 'inactive' }))).toEqual([false, false]);
    expect(entitled(makeUser({ planStatus: 'expired' }))).toEqual([false, false]);
    expect(entitled(makeUser())).toEqual([false, false]);
  });

  it('say no once a cancelled plan has passed its end, whatever the status still says', () => {
    const ended = makeSubscriber({
      planStatus: 'cancelled',
      entitlements: {
        paid: false,
        weeklyLimit: 5,
        canPrivate: false,
        canDownload: false,
        stems: seedStems(),
      },
    });
    expect(entitled(ended)).toEqual([false, false]);
  });

  it('read each right on its own', () => {
    const entitlements = {
      paid: true,
      weeklyLimit: 30,
      canPrivate: false,
      canDownload: true,
      stems: paidStems(),
    };
    expect(entitled(makeSubscriber({ entitlements }))).toEqual([true, false]);
    expect(entitled({ entitlements: { ...entitlements, canPrivate: true, canDownload: false } })).toEqual([
      false,
      true,
    ]);
  });

  it('offer nothing when the server has not said', () => {
    expect(entitled({})).toEqual([false, false]);
  });
});
