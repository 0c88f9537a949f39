/**
 * Deleting for good in a bucket that keeps versions (the tracks bucket,
 * infra/lib/data.ts). There a plain DELETE only puts a delete marker in
 * front of the object: its bytes stay as a noncurrent version until the
 * lifecycle rule expires them, weeks later. What a user deletes must be gone
 * at once, so every version and delete marker of the object is listed
 * (ListObjectVersions) and deleted by its version id. A bucket without
 * versioning lists each object once, as version `null`, and deleting that
 * version deletes the object, so the same calls work there too (and on the
 * local cloud, whose S3 proxy answers the listing for s3rver).
 */
import type { ObjectSweeper } from '../../domain/admin/ports';
import type { S3 } from './client';

/** One version (or delete marker) of a key, as ListObjectVersions names it. */
type Version = { Key: string; VersionId: string };

/** DeleteObjects takes at most this many versions a call, as ListObjectVersions lists a page. */
const PAGE = 1000;

/**
 * Deletes every version and delete marker of the keys under `prefix` that
 * `wanted` accepts, a listed page at a time, until the listing has none left.
 * Returns how many keys had something deleted.
 */
async function deleteVersions(
  s3: S3,
  bucket: string,
  prefix: string,
  wanted: (key: string) => boolean,
): Promise<number> {
  const { sdk, client } = await s3();
  const keys = new Set<string>();
  const deleted = new Set<string>();
  for (;;) {
    // Always the first page: what the last round deleted is no longer listed.
    const listed = await client.send(
      new sdk.ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix, MaxKeys: PAGE }),
    );
    const found = [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])].filter(
      (v): v is Version => v.Key !== undefined && v.VersionId !== undefined && wanted(v.Key),
    );
    if (found.length === 0) return keys.size;
    const again = found.find((v) => deleted.has(`${v.Key}\n${v.VersionId}`));
    if (again) throw new Error(`S3 still lists ${again.Key} version ${again.VersionId} after deleting it`);
    const answer = await client.send(
      new sdk.DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: found.map((v) => ({ Key: v.Key, VersionId: v.VersionId })), Quiet: true },
      }),
    );
    // Quiet: S3 names only what it could not delete. Stop rather than list the same versions again.
    const refused = answer.Errors?.[0];
    if (refused) {
      throw new Error(
        `S3 did not delete ${refused.Key} version ${refused.VersionId}: ${refused.Code} ${refused.Message}`,
      );
    }
    for (const v of found) {
      keys.add(v.Key);
      deleted.add(`${v.Key}\n${v.VersionId}`);
    }
    // Keys sort after a shorter one they start with, so an exact key's versions come first: a page that
    // held none of them, or the last page, leaves nothing to find.
    if (!listed.IsTruncated) return keys.size;
  }
}

/** Deletes every version of `key` in `bucket`: the object is gone, with nothing left to restore. */
export async function deleteEveryVersion(s3: S3, bucket: string, key: string): Promise<void> {
  await deleteVersions(s3, bucket, key, (listed) => listed === key);
}

/**
 * An {@link ObjectSweeper} for a bucket that keeps versions: every version
 * of every object under the prefix goes. Returns how many objects (keys).
 */
export function s3VersionSweeper(s3: S3, bucket: string): ObjectSweeper {
  return {
    async deletePrefix(prefix) {
      if (!prefix.endsWith('/') || prefix.length < 2) throw new Error(`Refusing to sweep prefix ${prefix}`);
      return deleteVersions(s3, bucket, prefix, () => true);
    },
  };
}
