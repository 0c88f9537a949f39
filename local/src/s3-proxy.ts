import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A small HTTP proxy in front of s3rver that checks what s3rver does not:
 * AWS Signature Version 4, on presigned links (query string) and on SDK calls
 * (Authorization header) alike, so a tampered link is refused locally the
 * way S3 refuses it: another key or bucket, a changed expiry, another
 * Content-Length or Content-Type than the one signed, an expired link, an
 * unknown access key or an unsigned request. What passes is forwarded to
 * s3rver unchanged (handed to its handler when it runs in this process);
 * CORS preflights pass unsigned, as on S3.
 *
 * Not checked: the hash of a signed payload against the body (SDK calls
 * here send `UNSIGNED-PAYLOAD` or a hash s3rver never sees altered).
 *
 * Multipart uploads as S3 runs them, where s3rver falls short: ListParts and
 * AbortMultipartUpload (s3rver has neither) are answered here from s3rver's
 * own store; a part PUT or a complete for an upload id that is not a live
 * upload of that key is refused with NoSuchUpload (s3rver would make one up);
 * complete refuses parts out of order, a part that is missing or has another
 * ETag, and a part under 5 MiB that is not the last, as S3 does.
 *
 * ListObjectVersions, which s3rver refuses (it keeps no versions), is
 * answered as S3 answers it for a bucket without versioning: each object
 * once, as its current version `null`, from s3rver's own listing. Deleting
 * version `null` (DeleteObject or DeleteObjects) is then what s3rver does
 * with any delete: the object is gone. So the code that deletes every
 * version of an object on AWS (functions/src/adapters/s3/versions.ts) runs
 * here unchanged.
 */

export interface S3ProxyOptions {
  port: number;
  /** s3rver's own URL; a promise of it while s3rver starts: requests wait for it. */
  upstream: string | Promise<string>;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** s3rver's store directory (its `directory` option), where it keeps multipart uploads. */
  dir: string;
  /**
   * s3rver's own request handler, when it runs in this process: what passes
   * the checks is handed to it directly instead of through a second loopback
   * connection, so a 46 MB object crosses one socket, not two. A request
   * whose body the proxy has read already still goes through `upstream`.
   */
  app?: Promise<http.RequestListener | undefined>;
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
  noSuchUpload: {
    status: 404,
    code: 'NoSuchUpload',
    message:
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
  },
  badPartNumber: {
    status: 400,
    code: 'InvalidArgument',
    message: 'Part number must be an integer between 1 and 10000, inclusive',
  },
  invalidPart: {
    status: 400,
    code: 'InvalidPart',
    message:
      "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
  },
  invalidPartOrder: {
    status: 400,
    code: 'InvalidPartOrder',
    message: 'The list of parts was not in ascending order. Parts must be ordered by part number.',
  },
  entityTooSmall: {
    status: 400,
    code: 'EntityTooSmall',
    message: 'Your proposed upload is smaller than the minimum allowed object size.',
  },
  malformedXml: {
    status: 400,
    code: 'MalformedXML',
    message: 'The XML you provided was not well-formed or did not validate against our published schema.',
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

/** S3's smallest part of a multipart upload, all but the last. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
/** The largest CompleteMultipartUpload body read (10000 parts fit well within). */
const MAX_COMPLETE_BODY = 2 * 1024 * 1024;

const xmlEscape = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`);

/** A multipart call on an object (path-style `/bucket/key?uploadId=...`), or undefined for anything else. */
function multipartCall(req: http.IncomingMessage) {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const uploadId = url.searchParams.get('uploadId');
  if (uploadId === null) return undefined;
  let segments: string[];
  try {
    segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const [bucket = '', ...rest] = segments;
  return { bucket, key: rest.join('/'), uploadId, partNumber: url.searchParams.get('partNumber') };
}

type MultipartCall = NonNullable<ReturnType<typeof multipartCall>>;

/** s3rver's folder of one multipart upload, if the id names a live upload of that bucket and key. */
async function liveUpload(dir: string, call: MultipartCall): Promise<string | undefined> {
  // s3rver's ids are 16 random bytes in hex; anything else names nothing (and no path).
  if (!/^[0-9a-f]{32}$/.test(call.uploadId) || !/^[A-Za-z0-9._-]+$/.test(call.bucket)) return undefined;
  const folder = path.join(dir, call.bucket, '._S3rver_uploads', call.uploadId);
  const key = await readFile(path.join(folder, 'key'), 'utf8').catch(() => undefined);
  return key !== undefined && key === call.key ? folder : undefined;
}

/** The parts s3rver holds for an upload, in part-number order. */
async function partsIn(folder: string) {
  const names = (await readdir(folder)).filter((name) => /^[0-9]+$/.test(name));
  const parts = await Promise.all(
    names.map(async (name) => {
      const [info, md5] = await Promise.all([
        stat(path.join(folder, name)),
        readFile(path.join(folder, `${name}.md5`), 'utf8').catch(() => ''),
      ]);
      return { number: Number(name), size: info.size, etag: md5.trim(), modified: info.mtime };
    }),
  );
  return parts.filter((part) => part.etag !== '').sort((a, b) => a.number - b.number);
}

function sendXml(res: http.ServerResponse, status: number, xml: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
  res.writeHead(status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    'access-control-allow-origin': '*',
  });
  res.end(body);
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Answers or checks a multipart call as S3 would. Returns true when it has
 * answered; otherwise the request goes on to s3rver, with `body` when it was read.
 */
async function handleMultipart(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  dir: string,
): Promise<{ answered: true } | { answered: false; body?: Buffer }> {
  const call = multipartCall(req);
  if (!call) return { answered: false };
  const method = req.method ?? 'GET';
  const folder = await liveUpload(dir, call);
  const answer = (refusal: Refusal) => {
    req.resume();
    refuse(res, refusal);
    return { answered: true as const };
  };
  if (!folder) return answer(refusals.noSuchUpload);

  if (method === 'PUT') {
    const n = Number(call.partNumber);
    if (!/^[0-9]{1,5}$/.test(call.partNumber ?? '') || n < 1 || n > 10_000)
      return answer(refusals.badPartNumber);
    return { answered: false };
  }
  if (method === 'GET') {
    const parts = await partsIn(folder);
    req.resume();
    sendXml(
      res,
      200,
      `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xmlEscape(call.bucket)}</Bucket><Key>${xmlEscape(call.key)}</Key><UploadId>${call.uploadId}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${parts.at(-1)?.number ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts
        .map(
          (part) =>
            `<Part><PartNumber>${part.number}</PartNumber><LastModified>${part.modified.toISOString()}</LastModified><ETag>"${part.etag}"</ETag><Size>${part.size}</Size></Part>`,
        )
        .join('')}</ListPartsResult>`,
    );
    return { answered: true };
  }
  if (method === 'DELETE') {
    req.resume();
    await rm(folder, { recursive: true, force: true });
    res.writeHead(204, { 'access-control-allow-origin': '*' });
    res.end();
    return { answered: true };
  }
  if (method === 'POST') {
    const body = await readBody(req, MAX_COMPLETE_BODY);
    if (!body) return answer(refusals.malformedXml);
    const named = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
      number: Number(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(m[1] ?? '')?.[1]),
      etag: (/<ETag>([\s\S]*?)<\/ETag>/.exec(m[1] ?? '')?.[1] ?? '').replace(/&quot;|"/g, '').trim(),
    }));
    if (named.length === 0 || named.some((part) => !Number.isInteger(part.number))) {
      return answer(refusals.malformedXml);
    }
    if (named.some((part, i) => i > 0 && part.number <= (named[i - 1] as { number: number }).number)) {
      return answer(refusals.invalidPartOrder);
    }
    const held = new Map((await partsIn(folder)).map((part) => [part.number, part]));
    const parts = named.map((part) => held.get(part.number));
    if (parts.some((part, i) => !part || part.etag !== named[i]?.etag)) return answer(refusals.invalidPart);
    if (parts.slice(0, -1).some((part) => (part as { size: number }).size < MIN_PART_BYTES)) {
      return answer(refusals.entityTooSmall);
    }
    return { answered: false, body };
  }
  return { answered: false };
}

/** A ListObjectVersions call (path-style `GET /bucket?versions`), or undefined for anything else. */
function versionsCall(req: http.IncomingMessage) {
  if (req.method !== 'GET') return undefined;
  const url = new URL(req.url ?? '/', 'http://s3.local');
  if (!url.searchParams.has('versions')) return undefined;
  const [bucket = '', ...rest] = url.pathname.split('/').slice(1);
  if (!bucket || rest.some((segment) => segment !== '')) return undefined;
  const maxKeys = Number(url.searchParams.get('max-keys') ?? 1000);
  return {
    bucket,
    prefix: url.searchParams.get('prefix') ?? '',
    keyMarker: url.searchParams.get('key-marker') ?? '',
    maxKeys: Number.isInteger(maxKeys) && maxKeys >= 0 ? Math.min(maxKeys, 1000) : 1000,
  };
}

/** The text of the first `<name>` element in `xml` (still XML-escaped), or undefined. */
const elementOf = (xml: string, name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1];

/**
 * Answers ListObjectVersions from s3rver's ListObjectsV2 of the same prefix,
 * every object as its one version `null` (S3's answer for a bucket without
 * versioning), paged by key as S3 pages it.
 */
async function listVersions(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  upstream: URL,
  call: NonNullable<ReturnType<typeof versionsCall>>,
): Promise<void> {
  req.resume();
  const query = new URLSearchParams({
    'list-type': '2',
    prefix: call.prefix,
    'max-keys': String(call.maxKeys),
  });
  // A version marker of `null` is the key's only version: the next page starts after the key.
  if (call.keyMarker) query.set('start-after', call.keyMarker);
  const listed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const ask = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: 'GET',
        path: `/${encodeURIComponent(call.bucket)}?${query}`,
        // As signed: s3rver reads the access key and the signing headers, not the signature the proxy checked.
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8') }),
        );
        answer.on('error', reject);
      },
    );
    ask.on('error', reject);
    ask.end();
  });
  if (listed.status !== 200) {
    // s3rver's own refusal (NoSuchBucket and the like), as it gave it.
    sendXml(res, listed.status, listed.body.replace(/^<\?xml[^>]*\?>\s*/, ''));
    return;
  }
  const objects = [...listed.body.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)].map((m) => m[1] ?? '');
  const truncated = elementOf(listed.body, 'IsTruncated') === 'true';
  const lastKey = objects.length ? elementOf(objects.at(-1) as string, 'Key') : undefined;
  const versions = objects.map(
    (object) =>
      `<Version><Key>${elementOf(object, 'Key') ?? ''}</Key><VersionId>null</VersionId><IsLatest>true</IsLatest><LastModified>${elementOf(object, 'LastModified') ?? ''}</LastModified><ETag>${elementOf(object, 'ETag') ?? ''}</ETag><Size>${elementOf(object, 'Size') ?? '0'}</Size><StorageClass>STANDARD</StorageClass></Version>`,
  );
  sendXml(
    res,
    200,
    `<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(call.bucket)}</Name><Prefix>${xmlEscape(call.prefix)}</Prefix><KeyMarker>${xmlEscape(call.keyMarker)}</KeyMarker><VersionIdMarker></VersionIdMarker><MaxKeys>${call.maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${
      truncated && lastKey
        ? `<NextKeyMarker>${lastKey}</NextKeyMarker><NextVersionIdMarker>null</NextVersionIdMarker>`
        : ''
    }${versions.join('')}</ListVersionsResult>`,
  );
}

export async function startS3Proxy(options: S3ProxyOptions): Promise<S3Proxy> {
  const upstream = Promise.resolve(options.upstream).then((address) => new URL(address));
  // Awaited per request: a start that fails is reported there.
  upstream.catch(() => {});
  const now = options.now ?? Date.now;
  const server = http.createServer(async (req, res) => {
    // CORS preflights carry no signature, on S3 too.
    if (req.method !== 'OPTIONS') {
      const refusal = verifySigV4(req, options.credentials, now());
      if (refusal) {
        req.resume();
        refuse(res, refusal);
        return;
      }
    }
    let target: URL;
    try {
      target = await upstream;
    } catch {
      req.resume();
      refuse(res, { status: 503, code: 'ServiceUnavailable', message: 's3rver did not start' });
      return;
    }
    let read: Buffer | undefined;
    if (req.method !== 'OPTIONS') {
      try {
        const versions = versionsCall(req);
        if (versions) {
          await listVersions(req, res, target, versions);
          return;
        }
        const handled = await handleMultipart(req, res, options.dir);
        if (handled.answered) return;
        read = handled.body;
      } catch {
        if (!res.headersSent) refuse(res, { status: 500, code: 'InternalError', message: 'Internal error' });
        return;
      }
    }
    const app = read ? undefined : await options.app?.catch(() => undefined);
    if (app) {
      app(req, res);
      return;
    }
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
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
    if (read) forward.end(read);
    else req.pipe(forward);
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
