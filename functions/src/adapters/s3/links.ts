/**
 * Short-lived presigned links to objects in our buckets. Buckets are private:
 * the music provider reaches audio, and a browser uploads, only through one of
 * these. Browsers play and download track audio through CloudFront signed
 * links instead (adapters/cloudfront/audio-links.ts, decision 008), which take
 * the same {@link ReadLinks} shape. The API hands links out only to viewers
 * allowed to see the track. Stored audio is referenced as `s3://bucket/key`.
 */
import type { S3 } from './client';

export interface S3Location {
  bucket: string;
  key: string;
}

/** `s3://bucket/key` → its parts, or undefined for anything else. */
export function parseS3Url(url: string): S3Location | undefined {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  return match ? { bucket: match[1] as string, key: match[2] as string } : undefined;
}

export const s3Url = ({ bucket, key }: S3Location) => `s3://${bucket}/${key}`;

/** How long a play or download link works at least: long enough for a listening session. */
export const READ_LINK_SECONDS = 6 * 60 * 60;
/**
 * Read links are signed as of the start of their hour, so an object gets the
 * same link all hour long: a list refreshed while a track generates does not
 * stop the one playing (a new link is a new source to the player), and the
 * browser's cache keeps serving it.
 */
export const READ_LINK_WINDOW_SECONDS = 60 * 60;
/** How long an upload link works. */
export const UPLOAD_LINK_SECONDS = 15 * 60;

/** A quoted, ASCII-safe `attachment` Content-Disposition with the UTF-8 name beside it. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export interface S3Links {
  /** A GET link; `downloadAs` makes the browser save it under that name. */
  read(location: S3Location, options?: { downloadAs?: string; expiresIn?: number }): Promise<string>;
  /** A PUT link for one object; the upload must send `contentType` when given, and exactly `size` bytes when given. */
  write(
    location: S3Location,
    options?: { contentType?: string; size?: number; expiresIn?: number },
  ): Promise<string>;
}

/** Anything that makes GET links (presigned S3, or CloudFront signed). */
export type ReadLinks = Pick<S3Links, 'read'>;

export function s3Links(s3: S3, now: () => number = Date.now): S3Links {
  const window = READ_LINK_WINDOW_SECONDS * 1000;
  return {
    read: async (location, options = {}) => {
      const { sdk, client } = await s3();
      const { getSignedUrl, GetObjectCommand } = sdk;
      const signingDate = new Date(Math.floor(now() / window) * window);
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: location.bucket,
          Key: location.key,
          ...(options.downloadAs
            ? { ResponseContentDisposition: attachmentDisposition(options.downloadAs) }
            : {}),
        }),
        // Counted from the start of the hour: at least READ_LINK_SECONDS from now.
        { signingDate, expiresIn: (options.expiresIn ?? READ_LINK_SECONDS) + READ_LINK_WINDOW_SECONDS },
      );
    },
    write: async (location, options = {}) => {
      const { sdk, client } = await s3();
      const { getSignedUrl, PutObjectCommand } = sdk;
      return getSignedUrl(
        client,
        new PutObjectCommand({
          Bucket: location.bucket,
          Key: location.key,
          ...(options.contentType ? { ContentType: options.contentType } : {}),
          ...(options.size ? { ContentLength: options.size } : {}),
        }),
        {
          expiresIn: options.expiresIn ?? UPLOAD_LINK_SECONDS,
          // Signed headers bind the upload: S3 refuses another type, or another length than described.
          signableHeaders: new Set([
            ...(options.contentType ? ['content-type'] : []),
            ...(options.size ? ['content-length'] : []),
          ]),
        },
      );
    },
  };
}

/** Links `s3://` audio for playback; other values pass through (see http/audio-links). */
export function s3AudioLinker(links: ReadLinks): (stored: string | null) => Promise<string | null> {
  return async (stored) => {
    if (!stored) return null;
    const location = parseS3Url(stored);
    return location ? links.read(location) : stored;
  };
}
