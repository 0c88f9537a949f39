import { describe, expect, it } from 'vitest';
import { jobOf } from './jobs';

const s3Event = (key: string) => ({
  Records: [
    {
      eventSource: 'aws:s3',
      eventName: 'ObjectCreated:Put',
      s3: { bucket: { name: 'site' }, object: { key } },
    },
  ],
});

describe('the jobs function’s events', () => {
  it('a new track frame template in the site bucket (a deploy) is a share-pages job', () => {
    expect(jobOf(s3Event('pages/track.html'))).toEqual({ kind: 'share-pages' });
  });

  it('the pricing page’s document written (a deploy, or the job itself) is a pricing-page job', () => {
    expect(jobOf(s3Event('pages/pricing.html'))).toEqual({ kind: 'pricing-page' });
  });

  it('any other object, and the API’s own job events, pass as they are', () => {
    const other = s3Event('share/track/t-1.html');
    expect(jobOf(other)).toBe(other);
    const shell = s3Event('index.html');
    expect(jobOf(shell)).toBe(shell);
    const job = { kind: 'export', userId: 'u', exportId: 'e' };
    expect(jobOf(job)).toBe(job);
  });
});
