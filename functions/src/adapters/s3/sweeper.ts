import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { ObjectSweeper } from '../../domain/admin/ports';

/** Deletes every object under a prefix of one bucket, a listed page (≤ 1000) at a time. */
export function s3Sweeper(client: S3Client, bucket: string): ObjectSweeper {
  return {
    async deletePrefix(prefix) {
      if (!prefix.endsWith('/') || prefix.length < 2) throw new Error(`Refusing to sweep prefix ${prefix}`);
      let deleted = 0;
      let token: string | undefined;
      do {
        const listed = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const objects = (listed.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (objects.length > 0) {
          await client.send(
            new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
          );
          deleted += objects.length;
        }
        token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },
  };
}
