import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';

/**
 * Lets `fn` delete objects for good under `areas` of a bucket that keeps
 * versions (the tracks bucket, data.ts). A plain delete there only hides an
 * object behind a delete marker, so the functions delete every version
 * (functions/src/adapters/s3/versions.ts): they list the versions of the key
 * or prefix (ListObjectVersions: `s3:ListBucketVersions`, on the bucket, for
 * listings within the areas only, by the `s3:prefix` condition) and delete
 * each by its id (DeleteObjects with version ids: `s3:DeleteObject` and
 * `s3:DeleteObjectVersion`, on the areas' objects).
 */
export function grantDeleteEveryVersion(fn: IFunction, bucket: IBucket, areas: readonly string[]): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
      resources: areas.map((area) => bucket.arnForObjects(`${area}*`)),
    }),
  );
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['s3:ListBucketVersions'],
      resources: [bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': areas.map((area) => `${area}*`) } },
    }),
  );
}

/**
 * Uploads in parts (decision 015): completing one lists its parts
 * (ListParts: `s3:ListMultipartUploadParts`) and a cancelled or oversized one
 * is aborted (`s3:AbortMultipartUpload`). Starting one, its parts and
 * completing it are `s3:PutObject`, which the writer holds already. Browsers
 * upload under `incoming/` only, so these apply there and nowhere else.
 */
export function grantUploadsInParts(fn: IFunction, uploads: IBucket, incomingArea: string): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['s3:ListMultipartUploadParts', 's3:AbortMultipartUpload'],
      resources: [uploads.arnForObjects(`${incomingArea}*`)],
    }),
  );
}
