import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3 } from './client';
import {
  attachmentDisposition,
  parseS3Url,
  READ_LINK_SECONDS,
  READ_LINK_WINDOW_SECONDS,
  s3AudioLinker,
  s3Links,
} from './links';

const saved = { ...process.env };
beforeAll(() => {
  process.env.TABLE_NAME = 'links-test';
  process.env.AWS_REGION = 'eu-west-1';
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
  delete process.env.S3_ENDPOINT;
  delete process.env.S3_FORCE_PATH_STYLE;
  delete process.env.AWS_REQUEST_CHECKSUM_CALCULATION;
});
afterAll(() => {
  process.env = saved;
});

describe('presigned links', () => {
  it('signs an upload without a checksum of an empty body, so S3 accepts the real file', async () => {
    const url = new URL(
      await s3Links(s3()).write(
        { bucket: 'tunesmith-up', key: 'uploads/u1/a.wav' },
        { contentType: 'audio/wav' },
      ),
    );
    expect(url.host).toBe('tunesmith-up.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe('/uploads/u1/a.wav');
    expect([...url.searchParams.keys()].some((k) => k.toLowerCase().includes('checksum'))).toBe(false);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-type');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).not.toContain('content-length');
  });

  it('binds an upload to the size the browser described', async () => {
    const url = new URL(
      await s3Links(s3()).write({ bucket: 'tunesmith-up', key: 'incoming/u1/a.wav' }, { size: 1234 }),
    );
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
  });

  it('signs a download that saves under the track title', async () => {
    const url = new URL(
      await s3Links(s3()).read(
        { bucket: 'tunesmith-tr', key: 'tracks/u1/t.wav' },
        { downloadAs: 'Night Drive.wav' },
      ),
    );
    expect(url.searchParams.get('response-content-disposition')).toBe(
      attachmentDisposition('Night Drive.wav'),
    );
    expect(attachmentDisposition('Ünïcode "x".wav')).toBe(
      `attachment; filename="_n_code _x_.wav"; filename*=UTF-8''${encodeURIComponent('Ünïcode "x".wav')}`,
    );
  });

  it('gives the same play link all hour, valid for at least six hours, and a new one the next hour', async () => {
    const hour = READ_LINK_WINDOW_SECONDS * 1000;
    let now = Date.UTC(2026, 10, 23, 10, 0, 5);
    const links = s3Links(s3(), () => now);
    const where = { bucket: 'tunesmith-tr', key: 'tracks/u1/t.wav' };
    const first = await links.read(where);
    now += hour - 10_000;
    const later = await links.read(where);
    expect(later).toBe(first);

    const url = new URL(later);
    const signed = url.searchParams.get('X-Amz-Date') as string;
    expect(signed).toBe('20261123T100000Z');
    const expiresAt = Date.UTC(2026, 10, 23, 10) + Number(url.searchParams.get('X-Amz-Expires')) * 1000;
    expect(expiresAt - now).toBeGreaterThanOrEqual(READ_LINK_SECONDS * 1000);

    now += 10_000;
    expect(await links.read(where)).not.toBe(first);
  });

  it('presigns only our s3:// audio and passes anything else through', async () => {
    const link = s3AudioLinker(s3Links(s3()));
    expect(parseS3Url('s3://tunesmith-tr/tracks/u1/t.wav')).toEqual({
      bucket: 'tunesmith-tr',
      key: 'tracks/u1/t.wav',
    });
    expect(await link(null)).toBeNull();
    expect(await link('https://example.com/a.wav')).toBe('https://example.com/a.wav');
    expect(await link('s3://tunesmith-tr/tracks/u1/t.wav')).toMatch(
      /^https:\/\/tunesmith-tr\.s3\.eu-west-1\.amazonaws\.com\/tracks\/u1\/t\.wav\?/,
    );
  });
});
