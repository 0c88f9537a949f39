import type { ObjectSweeper } from '../../domain/admin/ports';
import type { S3 } from './client';

/**
 * Deletes every object under a prefix of one bucket without versioning (the
 * uploads bucket), a listed page (≤ 1000) at a time: there a delete is final.
 * A bucket that keeps versions needs `s3VersionSweeper` (versions.ts).
 */
export function s3Sweeper(s3: S3, bucket: string): ObjectSweeper {
  return {
    async deletePrefix(prefix) {
      if (!prefix.endsWith('/') || prefix.length < 2) throw new Error(`Refusing to sweep prefix ${prefix}`);
      const { sdk, client } = await s3();
      let deleted = 0;
      let token: string | undefined;
      do {
        const listed = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const objects = (listed.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (objects.length > 0) {
          await client.send(
            new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
          );
          deleted += objects.length;
        }
        token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },
  };
}
