import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { contentSecurityPolicy } from '@tunesmith/shared/content-security-policy';
import { prerenderedDocument } from '@tunesmith/shared/pages';

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
};

/** The MIME type served for a file name. */
export function mimeType(file: string): string {
  return mimeTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The security headers CloudFront's response headers policy adds (the same content
 * security policy, shared/src/content-security-policy.ts), so the built SPA meets the
 * same policy locally. `connectSources` are the storage
 * origins the page reaches directly (locally: s3rver): the upload dialog PUTs
 * files there (connect-src). Players stream audio from the page's own origin
 * (`/tracks/*`, signed links; audio-cdn.ts), as from CloudFront on AWS.
 */
export function securityHeaders(options: {
  https: boolean;
  connectSources?: string[];
  csp?: boolean;
}): Record<string, string> {
  const csp = contentSecurityPolicy(options.connectSources);
  return {
    ...(options.csp === false ? {} : { 'content-security-policy': csp }),
    ...(options.https ? { 'strict-transport-security': 'max-age=63072000; includeSubDomains; preload' } : {}),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Content types sent compressed when the build made a compressed copy (text; never media). */
function compressible(contentType: string): boolean {
  return /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/.test(contentType);
}

/** The encodings the build writes beside a file, best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** Whether `Accept-Encoding` allows `encoding` (a listed name or `*`, with a q above 0). */
export function accepts(header: string | undefined, encoding: string): boolean {
  let wildcard = false;
  for (const part of (header ?? '').split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (token === encoding) return allowed;
    if (token === '*') wildcard = allowed;
  }
  return wildcard;
}

/**
 * Serves a built SPA like CloudFront in front of its bucket: files with their
 * MIME type, hashed `/assets` cached for a year, everything else revalidated
 * (the Cache-Control the deployments set, infra/lib/web.ts), `index.html` for
 * paths that are not files (client-side routes), a visitor's prerendered page
 * for the paths that have one (shared/src/pages.ts), and the given security
 * headers on every answer. Text is sent compressed as CloudFront compresses at
 * the edge: the build's `.br` or `.gz` copy (web/build/precompress.ts), the
 * best the `Accept-Encoding` allows; ranges are of the file as it is.
 */
export function createStaticHandler(root: string, headers: Record<string, string>): Handler {
  const base = path.resolve(root);
  const indexFile = path.join(base, 'index.html');

  const plain = (res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', ...extra });
    res.end(text);
  };

  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
    } catch {
      return plain(res, 400, 'Bad Request');
    }
    // A visitor's first frame of a prerendered page, as the edge's function chooses it (shared/src/pages.ts).
    let file = path.join(base, prerenderedDocument(pathname, req.headers.cookie) ?? pathname);
    if (file !== base && !file.startsWith(base + path.sep)) return plain(res, 404, 'Not Found');

    let info = await stat(file).catch(() => undefined);
    if (info?.isDirectory()) {
      file = path.join(file, 'index.html');
      info = await stat(file).catch(() => undefined);
    }
    if (!info?.isFile()) {
      if (path.extname(pathname) !== '') return plain(res, 404, 'Not Found');
      file = indexFile;
      info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return plain(res, 404, 'Not Found');
    }

    const hashed = pathname.startsWith('/assets/');
    const contentType = mimeType(file);
    const responseHeaders: Record<string, string> = {
      ...headers,
      'content-type': contentType,
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'public, no-cache',
      'last-modified': info.mtime.toUTCString(),
      'accept-ranges': 'bytes',
    };
    let size = info.size;
    if (compressible(contentType)) {
      responseHeaders.vary = 'accept-encoding';
      // A range is of the file as it is; a whole answer may be the compressed copy.
      if (!req.headers.range) {
        for (const { name, suffix } of ENCODINGS) {
          if (!accepts(req.headers['accept-encoding'], name)) continue;
          const copy = await stat(file + suffix).catch(() => undefined);
          if (!copy?.isFile()) continue;
          responseHeaders['content-encoding'] = name;
          file += suffix;
          size = copy.size;
          break;
        }
      }
    }
    // As S3's ETag: one path may answer different documents (a prerendered page or the shell), and
    // a browser that revalidates one must not be told that it still holds the other.
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}-${path.basename(file)}"`;
    responseHeaders.etag = etag;
    const since = Date.parse(req.headers['if-modified-since'] ?? '');
    const matches = req.headers['if-none-match']
      ? req.headers['if-none-match'].split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
      : !Number.isNaN(since) && Math.floor(info.mtimeMs / 1000) * 1000 <= since;
    if (matches) {
      res.writeHead(304, responseHeaders);
      res.end();
      return;
    }

    // Media elements (the background video) ask for ranges.
    let start = 0;
    let end = size - 1;
    let status = 200;
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] || range[2])) {
      if (range[1]) {
        start = Number(range[1]);
        end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      } else {
        start = Math.max(0, size - Number(range[2]));
      }
      if (start > end || start >= size) {
        return plain(res, 416, 'Range Not Satisfiable', { 'content-range': `bytes */${size}` });
      }
      status = 206;
      responseHeaders['content-range'] = `bytes ${start}-${end}/${size}`;
    }
    responseHeaders['content-length'] = String(size === 0 ? 0 : end - start + 1);
    res.writeHead(status, responseHeaders);
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    await new Promise<void>((resolve, reject) => {
      createReadStream(file, { start, end })
        .on('error', reject)
        .pipe(res)
        .on('finish', resolve)
        .on('close', resolve);
    });
  };
}
