import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3 } from './client';
import { attachmentDisposition, parseS3Url, s3AudioLinker, s3Links } from './links';

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
