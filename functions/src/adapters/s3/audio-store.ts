/**
 * The workflow's AudioStore on S3: downloads the provider's (expiring) result,
 * puts a track's files (the master, the marked WAV, the compressed copy, the
 * peaks) into the tracks bucket, and reads the master back to prepare the download.
 */
import { Readable } from 'node:stream';
import type { AudioStore } from '../../workflow/steps';
import type { S3 } from './client';
import { parseS3Url, s3Url } from './links';
import { deleteEveryVersion } from './versions';

export interface S3AudioStoreOptions {
  fetch?: typeof fetch;
}

export function s3AudioStore(s3: S3, bucket: string, options: S3AudioStoreOptions = {}): AudioStore {
  const doFetch = options.fetch ?? fetch;
  // The URL stored on the track for a key: `s3://bucket/key` (the API presigns reads).
  const urlFor = (key: string) => s3Url({ bucket, key });
  const putObject = async (key: string, bytes: Uint8Array, contentType: string, cacheControl?: string) => {
    const { sdk, client } = await s3();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ...(cacheControl ? { CacheControl: cacheControl } : {}),
      }),
    );
  };
  const get = async (url: string) => {
    const response = await doFetch(url);
    if (!response.ok) {
      const error = new Error(`Fetching the result audio answered ${response.status}`);
      // 5xx and 429 are worth a retry (the ASL retries Storage.Unavailable).
      if (response.status >= 500 || response.status === 429) error.name = 'Storage.Unavailable';
      throw error;
    }
    return response;
  };
  // A key holds one track's copy for good: nothing needs to ask again.
  const immutable = 'max-age=31536000, immutable';
  return {
    async fetch(url) {
      return readBody(await get(url));
    },
    async put(key, bytes, contentType) {
      await putObject(key, bytes, contentType, immutable);
      return urlFor(key);
    },
    async keep(url, key, contentType) {
      const response = await get(url);
      const length = knownLength(response);
      if (length === undefined || !response.body) {
        const bytes = await readBody(response);
        await putObject(key, bytes, contentType, immutable);
        return { bytes, stored: urlFor(key) };
      }
      // Uploaded while it downloads, each chunk copied once into the bytes returned.
      const bytes = new Uint8Array(length);
      const reader = response.body.getReader();
      let at = 0;
      let downloadError: unknown;
      // The next chunk into `bytes`; undefined at the end. The upload and its fallback share it.
      const pull = async (): Promise<Uint8Array | undefined> => {
        try {
          const read = await reader.read();
          if (read.done) {
            if (at !== length) throw unavailable('The result audio ended before its Content-Length');
            return undefined;
          }
          if (at + read.value.length > length) {
            await reader.cancel();
            throw unavailable('The result audio is longer than its Content-Length');
          }
          bytes.set(read.value, at);
          at += read.value.length;
          return read.value;
        } catch (error) {
          downloadError ??= error;
          throw error;
        }
      };
      let pulling: Promise<Uint8Array | undefined> | undefined;
      async function* chunks() {
        for (;;) {
          pulling = pull();
          const chunk = await pulling;
          if (!chunk) return;
          yield chunk;
        }
      }
      const { sdk, client } = await s3();
      const body = Readable.from(chunks());
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: body,
            ContentLength: length,
            ContentType: contentType,
            CacheControl: immutable,
          }),
        );
      } catch {
        body.destroy();
        if (downloadError !== undefined) throw downloadError;
        // A streamed body cannot be sent twice, so the SDK does not retry it: S3 answering 500 or
        // the connection dropping mid-upload ends here. The download goes on into `bytes`, and
        // they are put whole, which the SDK retries as it does every other put.
        await pulling?.catch(() => undefined);
        if (downloadError !== undefined) throw downloadError;
        while (await pull());
        await putObject(key, bytes, contentType, immutable);
      }
      return { bytes, stored: urlFor(key) };
    },
    async read(stored) {
      const location = parseS3Url(stored);
      if (!location || location.bucket !== bucket)
        throw new Error(`${stored} is not a file of the tracks bucket`);
      const { sdk, client } = await s3();
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: location.key }));
      if (!object.Body) throw new Error(`${stored} has no body`);
      return object.Body.transformToByteArray();
    },
    async remove(key) {
      // A file of a track deleted while it was made: nothing of it may stay behind as an old version.
      await deleteEveryVersion(s3, bucket, key);
    },
  };
}

/**
 * A response's body in one buffer. With a Content-Length (the provider's
 * files have one), each chunk is copied once into a buffer of that size as it
 * arrives, rather than kept and joined at the end: one copy of a 46 MB stem
 * less, and half the memory at once. A compressed body (its length is not
 * the length read) is read the ordinary way.
 */
async function readBody(response: Response): Promise<Uint8Array> {
  const length = knownLength(response);
  if (length === undefined || !response.body) return new Uint8Array(await response.arrayBuffer());
  const out = new Uint8Array(length);
  let at = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    if (at + chunk.length > length) {
      await reader.cancel();
      throw unavailable('The result audio is longer than its Content-Length');
    }
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== length) throw unavailable('The result audio ended before its Content-Length');
  return out;
}

/** The length of the body as it will be read: its Content-Length, unless it is compressed (or absent). */
function knownLength(response: Response): number | undefined {
  const length = Number(response.headers.get('content-length'));
  if (response.headers.has('content-encoding') || !Number.isSafeInteger(length) || length <= 0)
    return undefined;
  return length;
}

/** An error the state machine retries (Storage.Unavailable). */
function unavailable(message: string): Error {
  const error = new Error(message);
  error.name = 'Storage.Unavailable';
  return error;
}
