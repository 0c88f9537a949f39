import { createVerify } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { describe, expect, it } from 'vitest';
import {
  attachmentDisposition,
  READ_LINK_SECONDS,
  READ_LINK_WINDOW_SECONDS,
  type ReadLinks,
} from '../s3/links';
import {
  type AudioSigning,
  audioSigningFromEnv,
  cloudFrontReadLinks,
  SIGNED_LINK_CACHE_SIZE,
  type UrlSigner,
} from './audio-links';
import { audioViewerResponseCode, DOWNLOAD_PARAM } from './edge-download';
import { newSigningKeyPair } from './signing-key-pair';

const pair = newSigningKeyPair();
const origin = 'https://d111111abcdef8.cloudfront.net';
const signing = (): AudioSigning => ({
  origin,
  tracksBucket: 'tunesmith-tracks',
  keyPairId: 'K2JCJMDEHXQW5F',
  privateKey: async () => pair.privateKey,
});
const track = { bucket: 'tunesmith-tracks', key: 'tracks/8c1e.wav' };
const presigned: ReadLinks = {
  read: async ({ bucket, key }) => `https://s3.test/${bucket}/${key}?presigned`,
};

/**
 * What CloudFront does with a canned-policy link, with node:crypto alone: the
 * URL without its signing parameters is the policy's resource, the signature
 * (CloudFront's base64: `-` `_` `~` for `+` `=` `/`) must verify with the public key.
 */
function verify(link: string, publicKey: string): { valid: boolean; expires: number; keyPairId: string } {
  const url = new URL(link);
  const signing = ['Expires', 'Signature', 'Key-Pair-Id', 'Hash-Algorithm'];
  const expires = Number(url.searchParams.get('Expires'));
  const signature = (url.searchParams.get('Signature') ?? '')
    .replace(/-/g, '+')
    .replace(/_/g, '=')
    .replace(/~/g, '/');
  const rest = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair && !signing.includes(pair.split('=')[0] as string));
  const resource = `${url.origin}${url.pathname}${rest.length ? `?${rest.join('&')}` : ''}`;
  const policy = JSON.stringify({
    Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }],
  });
  const algorithm = url.searchParams.get('Hash-Algorithm') === 'SHA256' ? 'RSA-SHA256' : 'RSA-SHA1';
  const valid = createVerify(algorithm).update(policy).verify(publicKey, signature, 'base64');
  return { valid, expires, keyPairId: url.searchParams.get('Key-Pair-Id') ?? '' };
}

describe('CloudFront signed audio links', () => {
  it('are the object on the site origin, signed with a canned policy that verifies with the public key', async () => {
    const link = await cloudFrontReadLinks(signing, presigned).read(track);

    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/tracks/8c1e.wav`);
    expect(url.searchParams.get('Hash-Algorithm')).toBe('SHA256');
    expect(verify(link, pair.publicKey)).toMatchObject({ valid: true, keyPairId: 'K2JCJMDEHXQW5F' });
    expect(verify(link, newSigningKeyPair().publicKey).valid).toBe(false);
  });

  it('live at least six hours from any moment, and stay the same link all hour', async () => {
    const hour = READ_LINK_WINDOW_SECONDS * 1000;
    const start = Date.UTC(2026, 10, 23, 10);
    for (const offset of [0, 1, 30 * 60_000, hour - 1]) {
      const now = start + offset;
      const link = await cloudFrontReadLinks(signing, presigned, () => now).read(track);
      const { expires } = verify(link, pair.publicKey);
      expect(expires * 1000 - now).toBeGreaterThanOrEqual(READ_LINK_SECONDS * 1000);
      expect(expires * 1000 - now).toBeLessThanOrEqual((READ_LINK_SECONDS + READ_LINK_WINDOW_SECONDS) * 1000);
    }
    let now = start + 5_000;
    const links = cloudFrontReadLinks(signing, presigned, () => now);
    const first = await links.read(track);
    now = start + hour - 1;
    expect(await links.read(track)).toBe(first);
    now = start + hour;
    expect(await links.read(track)).not.toBe(first);
  });

  it('sign the saved file name into a download link, so it cannot be changed', async () => {
    const link = await cloudFrontReadLinks(signing, presigned).read(track, {
      downloadAs: 'Nuit été "1".wav',
    });

    const url = new URL(link);
    expect(url.searchParams.get(DOWNLOAD_PARAM)).toBe('Nuit été "1".wav');
    expect(verify(link, pair.publicKey).valid).toBe(true);
    url.searchParams.set(DOWNLOAD_PARAM, 'other.wav');
    expect(verify(url.toString(), pair.publicKey).valid).toBe(false);
  });

  it('sign export zips too (/exports/*), for as long as asked, saved under their name', async () => {
    const now = Date.parse('2026-05-01T10:20:00Z');
    const link = await cloudFrontReadLinks(signing, presigned, () => now).read(
      { bucket: 'tunesmith-tracks', key: 'exports/user-1/exp-1.zip' },
      { downloadAs: 'tunesmith-export-2026-05-01.zip', expiresIn: 24 * 60 * 60 },
    );

    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/exports/user-1/exp-1.zip`);
    expect(url.searchParams.get(DOWNLOAD_PARAM)).toBe('tunesmith-export-2026-05-01.zip');
    const { valid, expires } = verify(link, pair.publicKey);
    expect(valid).toBe(true);
    expect(expires * 1000).toBeGreaterThanOrEqual(now + 24 * 60 * 60 * 1000);
  });

  it('leave objects outside the tracks area to the presigned links', async () => {
    const links = cloudFrontReadLinks(signing, presigned);
    expect(await links.read({ bucket: 'tunesmith-uploads', key: 'tracks/a.wav' })).toBe(
      'https://s3.test/tunesmith-uploads/tracks/a.wav?presigned',
    );
    expect(await links.read({ bucket: 'tunesmith-tracks', key: 'other/a.wav' })).toBe(
      'https://s3.test/tunesmith-tracks/other/a.wav?presigned',
    );
  });
});

describe('signed links made once an hour', () => {
  const hour = READ_LINK_WINDOW_SECONDS * 1000;
  const start = Date.UTC(2026, 10, 23, 10);
  /** The real signer, counting what it signs. */
  const countingSigner = () => {
    const signed: string[] = [];
    const sign: UrlSigner = (input) => {
      signed.push(input.url as string);
      return getSignedUrl(input);
    };
    return { sign, signed };
  };

  it('hand out the same link for the same file all hour without signing it again', async () => {
    let now = start + 5_000;
    const { sign, signed } = countingSigner();
    const links = cloudFrontReadLinks(signing, presigned, () => now, sign);

    const first = await links.read(track);
    now = start + 20 * 60_000;
    const again = await links.read(track);
    now = start + hour - 1;
    const last = await links.read(track);

    expect(again).toBe(first);
    expect(last).toBe(first);
    expect(signed).toEqual([`${origin}/tracks/8c1e.wav`]);
    expect(verify(first, pair.publicKey).valid).toBe(true);
  });

  it('sign another file, another saved name or another lifetime on its own', async () => {
    const { sign, signed } = countingSigner();
    const links = cloudFrontReadLinks(signing, presigned, () => start, sign);

    const play = await links.read(track);
    const peaks = await links.read({ bucket: 'tunesmith-tracks', key: 'tracks/8c1e.peaks.json' });
    const download = await links.read(track, { downloadAs: 'Night Drive.wav' });
    const longer = await links.read(track, { expiresIn: 24 * 60 * 60 });

    expect(new Set([play, peaks, download, longer]).size).toBe(4);
    expect(signed).toHaveLength(4);
    expect(new URL(download).searchParams.get(DOWNLOAD_PARAM)).toBe('Night Drive.wav');
    expect(verify(longer, pair.publicKey).expires * 1000).toBeGreaterThanOrEqual(start + 24 * 60 * 60 * 1000);
    // Each is kept apart: asking for any of them again signs nothing.
    expect(await links.read(track, { downloadAs: 'Night Drive.wav' })).toBe(download);
    expect(await links.read(track)).toBe(play);
    expect(signed).toHaveLength(4);
  });

  it('sign again in a new hour, and never hand out a link that has expired or is about to', async () => {
    let now = start + 5_000;
    const { sign, signed } = countingSigner();
    const links = cloudFrontReadLinks(signing, presigned, () => now, sign);
    const first = await links.read(track);

    now = start + hour;
    const next = await links.read(track);
    expect(next).not.toBe(first);
    expect(signed).toHaveLength(2);
    expect(verify(next, pair.publicKey).expires).toBeGreaterThan(verify(first, pair.publicKey).expires);

    // Every link handed out, over two days, from whatever was kept, lives on for six hours at least.
    for (let t = start; t < start + 48 * hour; t += 7 * 60_000 + 13) {
      now = t;
      const { valid, expires } = verify(await links.read(track), pair.publicKey);
      expect(valid).toBe(true);
      expect(expires * 1000 - now).toBeGreaterThanOrEqual(READ_LINK_SECONDS * 1000);
    }
    // A clock set back an hour gets a link of its own hour, not a kept one.
    now = start + 5_000;
    expect(verify(await links.read(track), pair.publicKey).expires).toBe(
      verify(first, pair.publicKey).expires,
    );
  });

  it('sign again with a rotated key: none of the old key’s links is handed out once it is replaced', async () => {
    const rotated = newSigningKeyPair();
    let current: AudioSigning = signing();
    const { sign, signed } = countingSigner();
    const links = cloudFrontReadLinks(
      () => current,
      presigned,
      () => start,
      sign,
    );
    const before = await links.read(track);

    // A new key pair: new id, new private key.
    current = { ...current, keyPairId: 'K3NEWKEYPAIR01', privateKey: async () => rotated.privateKey };
    const after = await links.read(track);
    expect(after).not.toBe(before);
    expect(verify(after, rotated.publicKey)).toMatchObject({ valid: true, keyPairId: 'K3NEWKEYPAIR01' });
    expect(verify(after, pair.publicKey).valid).toBe(false);

    // The private key replaced under the same id signs afresh too.
    const third = newSigningKeyPair();
    current = { ...current, privateKey: async () => third.privateKey };
    const again = await links.read(track);
    expect(verify(again, third.publicKey).valid).toBe(true);
    expect(signed).toHaveLength(3);
  });

  it('keep a bounded number, forgetting the least recently used first', async () => {
    let count = 0;
    const sign: UrlSigner = (input) => `${input.url}?signature=${++count}`;
    const links = cloudFrontReadLinks(signing, presigned, () => start, sign);
    const file = (n: number) => ({ bucket: 'tunesmith-tracks', key: `tracks/${n}.opus` });

    const oldest = await links.read(file(0));
    const used = await links.read(file(1));
    for (let n = 2; n < SIGNED_LINK_CACHE_SIZE; n++) await links.read(file(n));
    expect(await links.read(file(1))).toBe(used);
    expect(count).toBe(SIGNED_LINK_CACHE_SIZE);

    // One more than it keeps: the least recently used (file 0) goes, file 1 was used since and stays.
    await links.read(file(SIGNED_LINK_CACHE_SIZE));
    expect(await links.read(file(1))).toBe(used);
    const remade = await links.read(file(0));
    expect(remade).not.toBe(oldest);
    expect(count).toBe(SIGNED_LINK_CACHE_SIZE + 2);
  });
});

describe('the signing settings', () => {
  const env = {
    PUBLIC_ORIGIN: `${origin}/`,
    TRACKS_BUCKET: 'tunesmith-tracks',
    AUDIO_SIGNING_KEY_PAIR_ID: 'K2JCJMDEHXQW5F',
    AUDIO_SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:audio-k1',
  };

  it('read the private key from the secret once per runtime, and again after a failed read', async () => {
    const reads: string[] = [];
    let fail = true;
    const settings = audioSigningFromEnv(env, async (arn) => {
      reads.push(arn);
      if (fail) throw new Error('throttled');
      return pair.privateKey;
    });
    expect(settings()).toMatchObject({
      origin,
      tracksBucket: 'tunesmith-tracks',
      keyPairId: 'K2JCJMDEHXQW5F',
    });
    await expect(settings().privateKey()).rejects.toThrow('throttled');
    fail = false;
    expect(await settings().privateKey()).toBe(pair.privateKey.trim());
    expect(await settings().privateKey()).toBe(pair.privateKey.trim());
    expect(reads).toEqual([env.AUDIO_SIGNING_SECRET_ARN, env.AUDIO_SIGNING_SECRET_ARN]);
  });

  it('take a PEM from the environment locally, its line breaks written as \\n', async () => {
    const settings = audioSigningFromEnv(
      {
        ...env,
        AUDIO_SIGNING_SECRET_ARN: '',
        AUDIO_SIGNING_PRIVATE_KEY: pair.privateKey.replace(/\n/g, '\\n'),
      },
      async () => {
        throw new Error('not on AWS');
      },
    );
    expect(await settings().privateKey()).toBe(pair.privateKey.trim());
  });

  it('refuse a secret without a key, and name a missing variable', async () => {
    await expect(audioSigningFromEnv(env, async () => 'placeholder')().privateKey()).rejects.toThrow(
      'no private key',
    );
    expect(() => audioSigningFromEnv({ ...env, AUDIO_SIGNING_KEY_PAIR_ID: '' })()).toThrow(
      'AUDIO_SIGNING_KEY_PAIR_ID',
    );
  });
});

describe('the audio behaviour viewer-response function', () => {
  type Header = { value: string };
  const run = (querystring: Record<string, { value: string }>) => {
    const handler = runInNewContext(`${audioViewerResponseCode}; handler`) as (event: unknown) => {
      statusCode: number;
      headers: Record<string, Header>;
    };
    return handler({
      request: { method: 'GET', uri: '/tracks/8c1e.wav', querystring, headers: {}, cookies: {} },
      response: { statusCode: 200, headers: { 'content-type': { value: 'audio/wav' } }, cookies: {} },
    });
  };

  it('saves a download under the signed name, as the presigned links did', () => {
    for (const name of ['Night Drive.wav', 'Ünïcode "x".wav', '100% love.wav']) {
      const encoded = encodeURIComponent(name);
      expect(run({ [DOWNLOAD_PARAM]: { value: encoded } }).headers['content-disposition']?.value, name).toBe(
        attachmentDisposition(name),
      );
    }
    // Should CloudFront hand the value over decoded, a literal % stays.
    expect(run({ [DOWNLOAD_PARAM]: { value: '100% love.wav' } }).headers['content-disposition']?.value).toBe(
      attachmentDisposition('100% love.wav'),
    );
  });

  it('leaves a play inline, and lets the browser keep either while a link lives', () => {
    const play = run({ Expires: { value: '1' } });
    expect(play.statusCode).toBe(200);
    expect(play.headers['content-disposition']).toBeUndefined();
    expect(play.headers['content-type']?.value).toBe('audio/wav');
    expect(play.headers['cache-control']?.value).toBe(`private, max-age=${READ_LINK_SECONDS}`);
  });
});
