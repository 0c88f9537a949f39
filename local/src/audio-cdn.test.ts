import { createSign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type AudioSigning, cloudFrontReadLinks } from '@tunesmith/functions/adapters/cloudfront/audio-links';
import { newSigningKeyPair } from '@tunesmith/functions/adapters/cloudfront/signing-key-pair';
import {
  attachmentDisposition,
  READ_LINK_SECONDS,
  type ReadLinks,
} from '@tunesmith/functions/adapters/s3/links';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAudioHandler, isAudioPath, verifySignedUrl } from './audio-cdn';

// The local audio behaviour checks links as CloudFront does; the links come from the functions' own signer.

const pair = newSigningKeyPair();
const keyPairId = 'KLOCALTEST';
const bucket = 'tunesmith-tracks';
const audio = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
const noFallback: ReadLinks = {
  read: async () => {
    throw new Error('not a track');
  },
};

/** The tracks bucket with one object, answering GetObject with ranges as S3 does. */
const storage = {
  send: async (command: unknown) => {
    if (!(command instanceof GetObjectCommand)) throw new Error('unexpected command');
    const { Bucket, Key, Range } = command.input;
    if (Bucket !== bucket || Key !== 'tracks/t1.wav')
      throw Object.assign(new Error('NoSuchKey'), { $metadata: { httpStatusCode: 404 } });
    const match = /^bytes=(\d+)-(\d*)$/.exec(Range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match?.[2] ? Number(match[2]) : audio.length - 1;
    return {
      Body: Readable.from([audio.subarray(start, end + 1)]),
      ContentType: 'audio/wav',
      ContentLength: end - start + 1,
      ...(match ? { ContentRange: `bytes ${start}-${end}/${audio.length}` } : {}),
      ETag: '"abc"',
    };
  },
} as unknown as S3Client;

let server: http.Server;
let origin: string;
let clock = Date.now();

beforeAll(async () => {
  const handler = createAudioHandler({
    s3: storage,
    bucket,
    publicKeys: { [keyPairId]: pair.publicKey },
    headers: { 'x-content-type-options': 'nosniff' },
    now: () => clock,
  });
  server = http.createServer((req, res) => {
    handler(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const signer = (signedOrigin = origin) =>
  cloudFrontReadLinks(
    (): AudioSigning => ({
      origin: signedOrigin,
      tracksBucket: bucket,
      keyPairId,
      privateKey: async () => pair.privateKey,
    }),
    noFallback,
    () => clock,
  );
const link = (options?: { downloadAs?: string }) => signer().read({ bucket, key: 'tracks/t1.wav' }, options);

describe('the local audio behaviour', () => {
  it('answers /tracks/* and /exports/* only', () => {
    expect(isAudioPath('/tracks/t1.wav?Expires=1')).toBe(true);
    expect(isAudioPath('/exports/user-1/exp-1.zip?Expires=1')).toBe(true);
    expect(isAudioPath('/track/t1')).toBe(false);
    expect(isAudioPath('/api/tracks')).toBe(false);
  });

  it('plays a signed link from the bucket, inline, cacheable by the browser while links live', async () => {
    const response = await fetch(await link());
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(audio)).toBe(true);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(response.headers.get('cache-control')).toBe(`private, max-age=${READ_LINK_SECONDS}`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers ranges, as media elements ask', async () => {
    const response = await fetch(await link(), { headers: { range: 'bytes=100-199' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(Buffer.from(await response.arrayBuffer()).equals(audio.subarray(100, 200))).toBe(true);
  });

  it('saves a download under the signed name', async () => {
    const response = await fetch(await link({ downloadAs: 'Été "1".wav' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(attachmentDisposition('Été "1".wav'));
  });

  it('refuses an expired link', async () => {
    const valid = await link();
    const saved = clock;
    clock += (READ_LINK_SECONDS + 60 * 60) * 1000;
    try {
      const response = await fetch(valid);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('<Code>AccessDenied</Code>');
    } finally {
      clock = saved;
    }
  });

  it('refuses a link altered in any part, or signed for another origin or key', async () => {
    const valid = new URL(await link({ downloadAs: 'a.wav' }));
    const altered = (change: (url: URL) => void) => {
      const url = new URL(valid);
      change(url);
      return url.toString();
    };
    const signature = valid.searchParams.get('Signature') as string;
    const attempts = [
      altered((url) => {
        url.pathname = '/tracks/t2.wav';
      }),
      altered((url) => url.searchParams.set('download', 'b.wav')),
      altered((url) => url.searchParams.delete('download')),
      altered((url) =>
        url.searchParams.set('Expires', String(Number(url.searchParams.get('Expires')) + 3600)),
      ),
      altered((url) =>
        url.searchParams.set(
          'Signature',
          `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`,
        ),
      ),
      altered((url) => url.searchParams.set('Key-Pair-Id', 'KOTHER')),
      altered((url) => url.searchParams.delete('Hash-Algorithm')),
      altered((url) => url.searchParams.delete('Signature')),
      (await signer('http://localhost:1').read({ bucket, key: 'tracks/t1.wav' })).replace(
        'http://localhost:1',
        origin,
      ),
    ];
    for (const attempt of attempts) {
      const response = await fetch(attempt);
      expect(response.status, attempt).toBe(403);
    }
    const unsigned = await fetch(`${origin}/tracks/t1.wav`);
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toContain('<Code>MissingKey</Code>');
    expect((await fetch(valid)).status).toBe(200);
  });

  it('answers a missing object as CloudFront without list access does, and only GET and HEAD', async () => {
    const missing = await signer().read({ bucket, key: 'tracks/gone.wav' });
    expect((await fetch(missing)).status).toBe(403);
    expect((await fetch(await link(), { method: 'POST' })).status).toBe(403);
  });

  it('verifies CloudFront’s default SHA-1 canned policy too, signed with node:crypto alone', () => {
    const path = '/tracks/t1.wav';
    const expires = Math.floor(clock / 1000) + 60;
    const policy = JSON.stringify({
      Statement: [
        { Resource: `${origin}${path}`, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } },
      ],
    });
    const signature = createSign('RSA-SHA1')
      .update(policy)
      .sign(pair.privateKey, 'base64')
      .replace(/\+/g, '-')
      .replace(/=/g, '_')
      .replace(/\//g, '~');
    const query = `Expires=${expires}&Signature=${signature}&Key-Pair-Id=${keyPairId}`;
    const keys = { [keyPairId]: pair.publicKey };
    expect(verifySignedUrl(origin, `${path}?${query}`, keys, clock)).toBeUndefined();
    expect(verifySignedUrl(origin, `${path}?${query}&Hash-Algorithm=SHA256`, keys, clock)).toMatchObject({
      status: 403,
    });
    expect(verifySignedUrl(origin, `${path}?${query}`, keys, expires * 1000)).toMatchObject({ status: 403 });
  });
});
