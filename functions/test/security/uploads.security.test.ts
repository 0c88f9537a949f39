import { describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts';
import { cloudEnv } from '../support/http';

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

describe('storage links (the local S3 checks signatures as S3 does)', () => {
  const mp3 = (bytes: number) => {
    const body = new Uint8Array(bytes);
    body.set([0x49, 0x44, 0x33, 0x03]); // ID3
    return body;
  };
  const put = (url: string, body: Uint8Array, type = 'audio/mpeg') =>
    fetch(url, { method: 'PUT', body: Buffer.from(body), headers: { 'content-type': type } });

  it('refuse another length, another type, another key, a longer life and no signature', async () => {
    const { browser } = await signedInUser();
    const reserve = async () =>
      String(
        (
          await browser.post('/api/objects/upload', {
            filename: 'a.mp3',
            contentType: 'audio/mpeg',
            size: 2048,
          })
        ).body.uploadURL,
      );
    const code = async (res: Response) => /<Code>(\w+)<\/Code>/.exec(await res.text())?.[1];

    const longer = await put(await reserve(), mp3(4096));
    expect([longer.status, await code(longer)]).toEqual([403, 'SignatureDoesNotMatch']);
    const otherType = await put(await reserve(), mp3(2048), 'audio/wav');
    expect([otherType.status, await code(otherType)]).toEqual([403, 'SignatureDoesNotMatch']);

    const moved = new URL(await reserve());
    moved.pathname = moved.pathname.replace(/[^/]+$/, 'someone-else.mp3');
    expect((await put(moved.toString(), mp3(2048))).status).toBe(403);

    const stretched = new URL(await reserve());
    stretched.searchParams.set('X-Amz-Expires', '604800');
    expect((await put(stretched.toString(), mp3(2048))).status).toBe(403);

    const unsigned = new URL(await reserve());
    unsigned.search = '';
    expect((await put(unsigned.toString(), mp3(2048))).status).toBe(403);

    // The link as issued works.
    expect((await put(await reserve(), mp3(2048))).status).toBe(200);
  });

  it('refuse an expired link', async () => {
    const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3');
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    const client = new S3Client({
      region: cloudEnv.AWS_REGION ?? 'us-east-1',
      endpoint: cloudEnv.S3_ENDPOINT ?? '',
      forcePathStyle: true,
      credentials: {
        accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID ?? '',
        secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY ?? '',
      },
    });
    const link = await getSignedUrl(
      client,
      new GetObjectCommand({ Bucket: cloudEnv.TRACKS_BUCKET ?? '', Key: 'tracks/none.wav' }),
      { expiresIn: 1 },
    );
    await new Promise((r) => setTimeout(r, 2100));
    const res = await fetch(link);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
    client.destroy();
  });
});
