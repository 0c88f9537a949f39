import { createVerify } from 'node:crypto';
import type http from 'node:http';
import type { Readable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { audioViewerResponseCode } from '@tunesmith/functions/adapters/cloudfront/edge-download';
import { EXPORTS_AREA } from '@tunesmith/functions/domain/exports/ports';
import { TRACK_AUDIO_AREA } from '@tunesmith/functions/domain/tracks/track';

/**
 * The local stand-in for the distribution's audio behaviour (decision 008):
 * `/tracks/*` on the one-origin server answers CloudFront signed links only,
 * checked as CloudFront checks a canned policy (the URL without its signing
 * parameters and the expiry, signed with a key of the trusted key group), then
 * streams the object from the S3 emulator with its ranges, and runs the very
 * viewer-response function the stack deploys. So the functions sign the same
 * way here as on AWS, and an expired or altered link is refused here too.
 *
 * Not mimicked: custom policies (the app signs canned ones only) and signed
 * cookies; CloudFront's cache.
 */

/** Paths the signed-link behaviours answer: track files (`/tracks/*`) and export zips (`/exports/*`). */
export const isAudioPath = (target: string): boolean =>
  target.startsWith(`/${TRACK_AUDIO_AREA}`) || target.startsWith(`/${EXPORTS_AREA}`);

export interface AudioCdnOptions {
  /** A client of the S3 emulator (through its signature-checking proxy). */
  s3: S3Client;
  /** The tracks bucket, the behaviour's origin. */
  bucket: string;
  /** The key group: public keys (PEM) by key pair id. */
  publicKeys: Readonly<Record<string, string>>;
  /** Headers of every answer (the response headers policy). */
  headers?: Record<string, string>;
  now?: () => number;
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

const denied: Refusal = { status: 403, code: 'AccessDenied', message: 'Access denied' };
const missingKey: Refusal = {
  status: 403,
  code: 'MissingKey',
  message: 'Missing Key-Pair-Id query parameter or cookie value',
};

const SIGNING_PARAMS = new Set(['Expires', 'Signature', 'Key-Pair-Id', 'Hash-Algorithm', 'Policy']);

const decode = (value: string): string => {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
};

/**
 * Whether `requestUrl` (path and raw query, as the viewer sent them to
 * `origin`) is a valid canned-policy signed URL at `now`; the refusal
 * CloudFront answers otherwise.
 */
export function verifySignedUrl(
  origin: string,
  requestUrl: string,
  publicKeys: Readonly<Record<string, string>>,
  now: number,
): Refusal | undefined {
  const queryAt = requestUrl.indexOf('?');
  const path = queryAt === -1 ? requestUrl : requestUrl.slice(0, queryAt);
  const pairs = (queryAt === -1 ? '' : requestUrl.slice(queryAt + 1)).split('&').filter(Boolean);
  const params = new Map<string, string>();
  const kept: string[] = [];
  for (const pair of pairs) {
    const name = decode(pair.split('=', 1)[0] as string);
    if (SIGNING_PARAMS.has(name)) params.set(name, decode(pair.slice(pair.indexOf('=') + 1)));
    else kept.push(pair);
  }
  const keyPairId = params.get('Key-Pair-Id');
  const signature = params.get('Signature');
  const expires = params.get('Expires');
  if (!keyPairId) return missingKey;
  // The app signs canned policies only: a custom one is refused here.
  if (!signature || !expires || !/^\d{1,12}$/.test(expires) || params.has('Policy')) return denied;
  const hash = params.get('Hash-Algorithm') ?? 'SHA1';
  const publicKey = publicKeys[keyPairId];
  if (!publicKey || (hash !== 'SHA1' && hash !== 'SHA256')) return denied;
  if (now >= Number(expires) * 1000) return denied;
  const resource = `${origin}${path}${kept.length ? `?${kept.join('&')}` : ''}`;
  const policy = JSON.stringify({
    Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': Number(expires) } } }],
  });
  // CloudFront's URL-safe base64: `-` `_` `~` stand for `+` `=` `/`.
  const standard = signature.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/');
  try {
    const valid = createVerify(hash === 'SHA256' ? 'RSA-SHA256' : 'RSA-SHA1')
      .update(policy)
      .verify(publicKey, standard, 'base64');
    return valid ? undefined : denied;
  } catch {
    return denied;
  }
}

type EdgeHeaders = Record<string, { value: string }>;
type ViewerResponse = (event: unknown) => { statusCode: number; headers: EdgeHeaders };

function refuse(res: http.ServerResponse, refusal: Refusal, headers: Record<string, string>): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`;
  res.writeHead(refusal.status, {
    ...headers,
    'content-type': 'text/xml',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/** The `/tracks/*` handler of the one-origin server. */
export function createAudioHandler(
  options: AudioCdnOptions,
): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  const now = options.now ?? Date.now;
  const headers = options.headers ?? {};
  const viewerResponse = runInNewContext(`${audioViewerResponseCode}; handler`) as ViewerResponse;

  return async (req, res) => {
    const target = req.url ?? '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, denied, headers);
    // The scheme and host the viewer used: a link signed for another origin does not verify.
    const refusal = verifySignedUrl(`http://${req.headers.host ?? ''}`, target, options.publicKeys, now());
    if (refusal) return refuse(res, refusal, headers);

    const pathname = target.split('?', 1)[0] as string;
    const key = pathname.slice(1).split('/').map(decode).join('/');
    const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
    let object: {
      Body?: unknown;
      ContentType?: string;
      ContentLength?: number;
      ContentRange?: string;
      ETag?: string;
      LastModified?: Date;
    };
    try {
      const input = { Bucket: options.bucket, Key: key, ...(range ? { Range: range } : {}) };
      object = await options.s3.send(
        req.method === 'HEAD' ? new HeadObjectCommand(input) : new GetObjectCommand(input),
      );
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      // CloudFront's access (s3:GetObject, no ListBucket) makes S3 answer a missing key with 403.
      if (status === 404 || status === 403) return refuse(res, denied, headers);
      if (status === 416)
        return refuse(
          res,
          { status: 416, code: 'InvalidRange', message: 'The requested range is not satisfiable' },
          headers,
        );
      throw error;
    }

    const originHeaders: EdgeHeaders = {
      'content-type': { value: object.ContentType ?? 'application/octet-stream' },
      'accept-ranges': { value: 'bytes' },
      ...(object.ContentLength !== undefined
        ? { 'content-length': { value: String(object.ContentLength) } }
        : {}),
      ...(object.ContentRange ? { 'content-range': { value: object.ContentRange } } : {}),
      ...(object.ETag ? { etag: { value: object.ETag } } : {}),
      ...(object.LastModified ? { 'last-modified': { value: object.LastModified.toUTCString() } } : {}),
    };
    const url = new URL(target, 'http://local');
    const querystring = Object.fromEntries(
      target
        .slice(target.indexOf('?') + 1 || target.length)
        .split('&')
        .filter(Boolean)
        .map((pair) => [
          decode(pair.split('=', 1)[0] as string),
          { value: pair.slice(pair.indexOf('=') + 1) },
        ]),
    );
    const response = viewerResponse({
      version: '1.0',
      context: { eventType: 'viewer-response' },
      request: { method: req.method, uri: url.pathname, querystring, headers: {}, cookies: {} },
      response: { statusCode: object.ContentRange ? 206 : 200, headers: originHeaders, cookies: {} },
    });
    res.writeHead(response.statusCode, {
      ...headers,
      ...Object.fromEntries(Object.entries(response.headers).map(([name, { value }]) => [name, value])),
    });
    const body = object.Body as Readable | undefined;
    if (req.method === 'HEAD' || !body) {
      res.end();
      return;
    }
    await new Promise<void>((resolve, reject) => {
      res.once('close', () => {
        body.destroy();
        resolve();
      });
      body.once('error', reject);
      body.pipe(res);
    });
  };
}
