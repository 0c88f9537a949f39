import type { IncomingMessage, ServerResponse } from 'node:http';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SHARE_PAGE_CACHE_CONTROL } from '@tunesmith/functions/adapters/share/share-pages';
import { creatorShareKey } from '@tunesmith/functions/domain/community/creator-share';
import { playlistSharePageKey } from '@tunesmith/functions/domain/community/playlist-share-page';
import { SHARE_ID_PATTERN, sharePageKey } from '@tunesmith/functions/domain/tracks/share-page';
import { HANDLE_PATTERN } from '@tunesmith/shared/community';
import { sharesTrackDocument } from '@tunesmith/shared/pages';

/**
 * The local stand-in for the edge's share pages (decision 024): for
 * `/track/{id}` CloudFront's viewer-request function serves the track's share
 * document when its key is in the KeyValueStore, and the SPA shell
 * otherwise. Here the document's existence in the local site bucket is the
 * key: the same document the functions wrote, or the caller's next handler.
 * As at the edge, only a visitor gets it: a browser with the signed-in hint
 * gets the shell (decision 026).
 */

/** The track id of a `/track/{id}` page (query string ignored), when it is one the edge would look up. */
export function sharePageId(target: string): string | undefined {
  const pathname = target.split(/[?#]/, 1)[0] ?? '';
  const match = /^\/track\/([^/]+)\/?$/.exec(pathname);
  const id = match?.[1];
  return id && SHARE_ID_PATTERN.test(id) ? id : undefined;
}

/** The playlist id of a `/playlist/{id}` page (decision 058), when it is one the edge would look up. */
export function playlistSharePageId(target: string): string | undefined {
  const pathname = target.split(/[?#]/, 1)[0] ?? '';
  const id = /^\/playlist\/([^/]+)\/?$/.exec(pathname)?.[1];
  return id && SHARE_ID_PATTERN.test(id) ? id : undefined;
}

/** The document a visitor's `/@handle` would be served (decision 059), when the path is one. */
export function creatorPageKey(target: string): string | undefined {
  const pathname = target.split(/[?#]/, 1)[0] ?? '';
  const match = /^\/@([^/]+)\/?$/.exec(pathname);
  const handle = match?.[1];
  return handle && HANDLE_PATTERN.test(handle) ? creatorShareKey(handle) : undefined;
}

/** The site bucket's key of the share document a page would be answered with, if it has one. */
function shareDocumentKey(target: string): string | undefined {
  const track = sharePageId(target);
  if (track) return sharePageKey(track);
  const playlist = playlistSharePageId(target);
  return playlist ? playlistSharePageKey(playlist) : creatorPageKey(target);
}

/**
 * Answers a visitor's GET and HEAD of `/track/{id}` (and `/playlist/{id}`, `/@handle`) with its share
 * document from `bucket` when there is one (with `headers`, the site's
 * security headers); otherwise, for a browser with the signed-in hint, and
 * for every other request, calls `next`.
 */
export function createSharePageHandler(options: {
  s3: S3Client;
  bucket: string;
  headers: Record<string, string>;
}): (req: IncomingMessage, res: ServerResponse, next: () => Promise<void>) => Promise<void> {
  return async (req, res, next) => {
    const key = shareDocumentKey(req.url ?? '/');
    if (!key || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (!sharesTrackDocument(req.headers.cookie)) return next();
    let html: string;
    try {
      const object = await options.s3.send(new GetObjectCommand({ Bucket: options.bucket, Key: key }));
      html = (await object.Body?.transformToString('utf8')) ?? '';
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as { name?: string }).name === 'NoSuchKey') return next();
      throw error;
    }
    const body = Buffer.from(html, 'utf8');
    res.writeHead(200, {
      ...options.headers,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': SHARE_PAGE_CACHE_CONTROL,
      'content-length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
