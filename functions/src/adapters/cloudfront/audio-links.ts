/**
 * Play and download links to track audio as CloudFront signed URLs (decision
 * 008). The tracks bucket is an origin of the site's distribution under
 * `/tracks/*`, reached through origin access control, and that behaviour
 * trusts one key group: a link is the object's URL on the site's origin with
 * a canned policy (an expiry) signed by a private key the stack keeps in
 * Secrets Manager. Unlike a presigned S3 link, it does not die with the
 * function's role session, and a play is served from CloudFront's cache.
 */
import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { EXPORTS_AREA } from '../../domain/exports/ports';
import { TRACK_AUDIO_AREA } from '../../domain/tracks/track';
import { awsClientDefaults } from '../client-options';
import { READ_LINK_SECONDS, READ_LINK_WINDOW_SECONDS, type ReadLinks } from '../s3/links';
import { traced } from '../tracing';
import { DOWNLOAD_PARAM } from './edge-download';

/** What signing needs; read once per runtime (see {@link audioSigningFromEnv}). */
export interface AudioSigning {
  /** The origin links are on (the site's, e.g. `https://d1234.cloudfront.net`), without a trailing slash. */
  origin: string;
  /** The bucket behind the audio behaviour; only its `tracks/` objects are served there. */
  tracksBucket: string;
  /** The CloudFront public key's id (`Key-Pair-Id`). */
  keyPairId: string;
  /** The RSA private key, PEM. */
  privateKey(): Promise<string>;
}

/** The tracks bucket's areas the distribution serves to signed links: track files, and export zips. */
const signedAreas = [TRACK_AUDIO_AREA, EXPORTS_AREA];

/** How many signed links one runtime keeps for reuse: a full gallery and the largest library several times over. */
export const SIGNED_LINK_CACHE_SIZE = 5_000;

/** Makes one CloudFront signed URL (`getSignedUrl`); replaceable in tests, to count signatures. */
export type UrlSigner = typeof getSignedUrl;

/**
 * Signed links for audio in the tracks area and export zips (`/exports/*`, decision 021); any other object (none today)
 * gets a link from `fallback`. Links are signed as of the start of their
 * hour, like presigned ones were (decision 003): an object gets the same link
 * all hour, valid for at least `READ_LINK_SECONDS` from any moment in it.
 *
 * Being the same all hour, a link is signed once per hour and then handed out
 * again (decision 041): an RSA signature costs about half a millisecond, and
 * a gallery page holds 48 links. The links kept are those of the current hour
 * under the current key pair and private key only: a new hour, or a rotated
 * key, starts afresh, so a link handed out is never expired (it outlives its
 * hour by `READ_LINK_SECONDS`) and never signed by a key no longer in use.
 * At most {@link SIGNED_LINK_CACHE_SIZE} are kept, the least recently used
 * going first.
 */
export function cloudFrontReadLinks(
  signing: () => AudioSigning,
  fallback: ReadLinks,
  now: () => number = Date.now,
  sign: UrlSigner = getSignedUrl,
): ReadLinks {
  const window = READ_LINK_WINDOW_SECONDS * 1000;
  let kept: { start: number; keyPairId: string; privateKey: string; links: Map<string, string> } | undefined;
  return {
    async read(location, options = {}) {
      const config = signing();
      if (
        location.bucket !== config.tracksBucket ||
        !signedAreas.some((area) => location.key.startsWith(area))
      )
        return fallback.read(location, options);
      const privateKey = await config.privateKey();
      const start = Math.floor(now() / window) * window;
      const expires = start + ((options.expiresIn ?? READ_LINK_SECONDS) + READ_LINK_WINDOW_SECONDS) * 1000;
      const path = location.key.split('/').map(encodeURIComponent).join('/');
      const query = options.downloadAs ? `?${DOWNLOAD_PARAM}=${encodeURIComponent(options.downloadAs)}` : '';
      const url = `${config.origin}/${path}${query}`;
      if (kept?.start !== start || kept.keyPairId !== config.keyPairId || kept.privateKey !== privateKey) {
        kept = { start, keyPairId: config.keyPairId, privateKey, links: new Map() };
      }
      const links = kept.links;
      const key = `${expires} ${url}`;
      const known = links.get(key);
      if (known !== undefined) {
        // Most recently used last, so the eviction below takes the least recently used.
        links.delete(key);
        links.set(key, known);
        return known;
      }
      const link = sign({
        url,
        keyPairId: config.keyPairId,
        privateKey,
        dateLessThan: new Date(expires),
        algorithm: 'SHA256',
      });
      if (links.size >= SIGNED_LINK_CACHE_SIZE) links.delete(links.keys().next().value as string);
      links.set(key, link);
      return link;
    },
  };
}

/** Reads a secret's string; replaceable in tests. */
export type SecretReader = (arn: string) => Promise<string | undefined>;

const readSecretsManager: SecretReader = async (arn) => {
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  const client = traced(new SecretsManagerClient({ ...awsClientDefaults, region: process.env.AWS_REGION }));
  try {
    return (await client.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
  } finally {
    client.destroy();
  }
};

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
};

/**
 * Signing settings from the environment, read on first use: `PUBLIC_ORIGIN`
 * (audio is served by the site's own distribution), `TRACKS_BUCKET`,
 * `AUDIO_SIGNING_KEY_PAIR_ID`, and the private key, from
 * `AUDIO_SIGNING_PRIVATE_KEY` (PEM; the local cloud) or else the Secrets
 * Manager secret `AUDIO_SIGNING_SECRET_ARN` (AWS), read once per runtime. A
 * rotation changes the key pair id and the secret together (a new
 * environment, so new runtimes); a failed read is tried again on the next link.
 */
export function audioSigningFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  readSecret: SecretReader = readSecretsManager,
): () => AudioSigning {
  let config: AudioSigning | undefined;
  let key: Promise<string> | undefined;
  const loadKey = async () => {
    // A PEM in a one-line variable may carry its line breaks as `\n`.
    const inline = env.AUDIO_SIGNING_PRIVATE_KEY?.replace(/\\n/g, '\n').trim();
    if (inline) return inline;
    const stored = (await readSecret(required(env, 'AUDIO_SIGNING_SECRET_ARN')))?.trim();
    if (!stored?.includes('PRIVATE KEY-----'))
      throw new Error('The audio signing secret holds no private key');
    return stored;
  };
  return () => {
    config ??= {
      origin: required(env, 'PUBLIC_ORIGIN').replace(/\/+$/, ''),
      tracksBucket: required(env, 'TRACKS_BUCKET'),
      keyPairId: required(env, 'AUDIO_SIGNING_KEY_PAIR_ID'),
      privateKey: () => {
        key ??= loadKey().catch((error: unknown) => {
          key = undefined;
          throw error;
        });
        return key;
      },
    };
    return config;
  };
}
