import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts';

// Upload links: how many one user can hold, and what a described link lets through.

describe('upload links', () => {
  it('are limited per user, with or without a description of the file', async () => {
    const { browser } = await signedInUser();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const body = i % 2 ? {} : { filename: 'song.mp3', contentType: 'audio/mpeg', size: 1000 };
      statuses.push((await browser.post('/api/objects/upload', body)).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const refused = await browser.post('/api/objects/upload', {});
    expect([refused.status, refused.body.message]).toEqual([
      429,
      'Too many uploads in the last hour. Please wait a while and try again.',
    ]);
    // Another user is not held back.
    const other = await signedInUser();
    expect((await other.browser.post('/api/objects/upload', {})).status).toBe(200);
  });

  it('carry a described file length and type in their signature', async () => {
    const { browser } = await signedInUser();
    const res = await browser.post('/api/objects/upload', {
      filename: 'song.mp3',
      contentType: 'audio/mpeg',
      size: 1234,
    });
    const url = new URL(String(res.body.uploadURL));
    const signed = (url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';');
    expect(signed).toEqual(expect.arrayContaining(['content-length', 'content-type', 'host']));
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(15 * 60);
  });
});
