import { defaultPublicSite } from '@tunesmith/shared/settings';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { getSite, knownSite, readPublicSite } from './site';

const answer = {
  name: 'Beat Forge',
  description: 'Songs from words',
  supportEmail: 'help@beatforge.test',
  contactEmail: 'hello@beatforge.test',
};

describe('readPublicSite', () => {
  it('keeps the four public settings and nothing else', () => {
    expect(readPublicSite({ ...answer, stripeSecretKey: 'sk_test_x' })).toEqual(answer);
  });

  it.each([
    ['a missing name', { ...answer, name: undefined }],
    ['a number for an address', { ...answer, contactEmail: 7 }],
    ['no object at all', 'Beat Forge'],
    ['null', null],
  ])('refuses %s', (_, value) => {
    expect(() => readPublicSite(value)).toThrow();
  });
});

describe('getSite', () => {
  it("names the site as GET /api/site says and remembers it for the tab's title", async () => {
    mockFetch({ 'GET /api/site': jsonResponse(answer) });

    await expect(getSite()).resolves.toEqual(answer);
    expect(knownSite()).toEqual(answer);
  });

  it('falls back to the defaults when the answer is not the public settings', async () => {
    mockFetch({ 'GET /api/site': jsonResponse({ name: 'Beat Forge' }) });

    await expect(getSite()).resolves.toEqual(defaultPublicSite);
    expect(knownSite()).toEqual(defaultPublicSite);
  });
});
