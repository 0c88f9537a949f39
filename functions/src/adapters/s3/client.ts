import type { S3Client } from '@aws-sdk/client-s3';
import { runtimeConfig } from '../../config';
import { streamingClientDefaults } from '../client-options';
import { type LazySdk, lazySdk } from '../lazy-sdk';
import { traced } from '../tracing';

/** S3, loaded on the first call that needs it: plays and downloads are CloudFront links, signed without it. */
export type S3 = LazySdk<typeof import('./sdk'), S3Client>;

/** An existing client as an {@link S3} (tests, scripts). */
export const s3Of = (client: S3Client): S3 =>
  lazySdk(
    () => import('./sdk'),
    () => client,
  );

let cached: S3 | undefined;

/**
 * One S3 client per runtime. Locally `S3_ENDPOINT` and `S3_FORCE_PATH_STYLE`
 * point it at s3rver; on AWS both are unset.
 */
export function s3(): S3 {
  cached ??= lazySdk(
    () => import('./sdk'),
    (sdk) =>
      traced(
        new sdk.S3Client({
          ...streamingClientDefaults,
          region: runtimeConfig().region,
          // Otherwise presigned PUTs carry the checksum of an empty body and S3 refuses every real upload.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          ...(process.env.S3_ENDPOINT ? { endpoint: process.env.S3_ENDPOINT } : {}),
          ...(process.env.S3_FORCE_PATH_STYLE === 'true' || process.env.S3_FORCE_PATH_STYLE === '1'
            ? { forcePathStyle: true }
            : {}),
        }),
      ),
  );
  return cached;
}

/** A bucket name from the environment (`UPLOADS_BUCKET`, `TRACKS_BUCKET`). */
export function bucketFromEnv(name: 'UPLOADS_BUCKET' | 'TRACKS_BUCKET'): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}
