import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP proxy in front of s3rver that checks what s3rver does not:
 * AWS Signature Version 4, on presigned links (query string) and on SDK calls
 * (Authorization header) alike, so a tampered link is refused locally the
 * way S3 refuses it: another key or bucket, a changed expiry, another
 * Content-Length or Content-Type than the one signed, an expired link, an
 * unknown access key or an unsigned request. What passes is forwarded to
 * s3rver unchanged; CORS preflights pass unsigned, as on S3.
 *
 * Not checked: the hash of a signed payload against the body (SDK calls
 * here send `UNSIGNED-PAYLOAD` or a hash s3rver never sees altered).
 */

export interface S3ProxyOptions {
  port: number;
  /** s3rver's own URL. */
  upstream: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  now?: () => number;
}

export interface S3Proxy {
  url: string;
  close(): Promise<void>;
}

/** S3 accepts a header-signed request this far from its own clock. */
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
/** The longest a presigned link may live (7 days). */
const MAX_EXPIRES_SECONDS = 7 * 24 * 60 * 60;

type Refusal = { status: number; code: string; message: string };

const refusals = {
  mismatch: {
    status: 403,
    code: 'SignatureDoesNotMatch',
    message:
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  },
  expired: { status: 403, code: 'AccessDenied', message: 'Request has expired' },
  unsigned: { status: 403, code: 'AccessDenied', message: 'Access Denied' },
  badKey: {
    status: 403,
    code: 'InvalidAccessKeyId',
    message: 'The AWS Access Key Id you provided does not exist in our records.',
  },
  malformed: {
    status: 400,
    code: 'AuthorizationQueryParametersError',
    message:
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
  },
  skewed: {
    status: 403,
    code: 'RequestTimeTooSkewed',
    message: 'The difference between the request time and the current time is too large.',
  },
} satisfies Record<string, Refusal>;

/** RFC 3986 encoding as SigV4 wants it: only A-Z a-z 0-9 - . _ ~ stay as they are. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** `20260101T120000Z` → epoch milliseconds, or NaN. */
function amzDateMs(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

function canonicalUri(rawPath: string): string {
  return rawPath
    .split('/')
    .map((segment) => {
      try {
        return uriEncode(decodeURIComponent(segment));
      } catch {
        return segment;
      }
    })
    .join('/');
}

function canonicalQuery(pairs: [string, string][]): string {
  return pairs
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function headerValue(req: http.IncomingMessage, name: string): string {
  const value = req.headers[name];
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined.trim().replace(/\s+/g, ' ');
}

interface Signed {
  accessKeyId: string;
  scope: string;
  date: string;
  region: string;
  service: string;
  amzDate: string;
  signedHeaders: string[];
  signature: string;
  payloadHash: string;
  /** The query pairs that are part of the canonical request. */
  query: [string, string][];
}

/** The SigV4 parts of a request, or a refusal; undefined when it carries no signature at all. */
function signatureOf(req: http.IncomingMessage, url: URL, now: number): Signed | Refusal | undefined {
  const query = [...url.searchParams.entries()];
  const param = (name: string) => url.searchParams.get(name) ?? undefined;
  const authorization = headerValue(req, 'authorization');
  if (param('X-Amz-Signature') !== undefined || param('X-Amz-Algorithm') !== undefined) {
    const credential = param('X-Amz-Credential');
    const amzDate = param('X-Amz-Date');
    const expires = Number(param('X-Amz-Expires'));
    const signedHeaders = param('X-Amz-SignedHeaders');
    const signature = param('X-Amz-Signature');
    if (
      param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' ||
      !credential ||
      !amzDate ||
      !signedHeaders ||
      !signature ||
      !Number.isInteger(expires) ||
      expires < 1 ||
      expires > MAX_EXPIRES_SECONDS
    ) {
      return refusals.malformed;
    }
    const issued = amzDateMs(amzDate);
    if (Number.isNaN(issued)) return refusals.malformed;
    if (now > issued + expires * 1000) return refusals.expired;
    const [accessKeyId = '', date = '', region = '', service = ''] = credential.split('/');
    return {
      accessKeyId,
      scope: credential.split('/').slice(1).join('/'),
      date,
      region,
      service,
      amzDate,
      signedHeaders: signedHeaders.split(';'),
      signature,
      payloadHash: param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
      query: query.filter(([k]) => k !== 'X-Amz-Signature'),
    };
  }
  if (authorization.startsWith('AWS4-HMAC-SHA256 ')) {
    const fields = Object.fromEntries(
      authorization
        .slice('AWS4-HMAC-SHA256 '.length)
        .split(',')
        .map((part) => part.trim().split('=') as [string, string]),
    );
    const credential = fields.Credential;
    const amzDate = headerValue(req, 'x-amz-date');
    const issued = amzDateMs(amzDate);
    if (!credential || !fields.SignedHeaders || !fields.Signature || Number.isNaN(issued))
      return refusals.mismatch;
    if (Math.abs(now - issued) > MAX_CLOCK_SKEW_MS) return refusals.skewed;
    const [accessKeyId = '', date = '', region = '', service = ''] = credential.split('/');
    return {
      accessKeyId,
      scope: credential.split('/').slice(1).join('/'),
      date,
      region,
      service,
      amzDate,
      signedHeaders: fields.SignedHeaders.split(';'),
      signature: fields.Signature,
      payloadHash: headerValue(req, 'x-amz-content-sha256') || 'UNSIGNED-PAYLOAD',
      query,
    };
  }
  return undefined;
}

/** Whether the request carries a valid signature by `credentials`; the refusal otherwise. */
export function verifySigV4(
  req: http.IncomingMessage,
  credentials: S3ProxyOptions['credentials'],
  now: number,
): Refusal | undefined {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const signed = signatureOf(req, url, now);
  if (!signed) return refusals.unsigned;
  if ('code' in signed) return signed;
  if (signed.accessKeyId !== credentials.accessKeyId) return refusals.badKey;
  if (!signed.signedHeaders.includes('host') || signed.amzDate.slice(0, 8) !== signed.date)
    return refusals.mismatch;
  const canonicalRequest = [
    req.method ?? 'GET',
    canonicalUri(url.pathname),
    canonicalQuery(signed.query),
    ...signed.signedHeaders.map((name) => `${name}:${headerValue(req, name)}`),
    '',
    signed.signedHeaders.join(';'),
    signed.payloadHash,
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', signed.amzDate, signed.scope, sha256Hex(canonicalRequest)].join(
    '\n',
  );
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, signed.date), signed.region), signed.service),
    'aws4_request',
  );
  const expected = Buffer.from(createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex'));
  const given = Buffer.from(signed.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return refusals.mismatch;
  return undefined;
}

function refuse(res: http.ServerResponse, refusal: Refusal): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`;
  res.writeHead(refusal.status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    // The browser must be able to read the refusal of a cross-origin PUT.
    'access-control-allow-origin': '*',
  });
  res.end(body);
}

export async function startS3Proxy(options: S3ProxyOptions): Promise<S3Proxy> {
  const upstream = new URL(options.upstream);
  const now = options.now ?? Date.now;
  const server = http.createServer((req, res) => {
    // CORS preflights carry no signature, on S3 too.
    if (req.method !== 'OPTIONS') {
      const refusal = verifySigV4(req, options.credentials, now());
      if (refusal) {
        req.resume();
        refuse(res, refusal);
        return;
      }
    }
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent)
        refuse(res, { status: 502, code: 'BadGateway', message: 's3rver is not answering' });
      else res.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
