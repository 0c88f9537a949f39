/**
 * What every AWS SDK client of ours is built with: a short connection
 * timeout, a deadline for each attempt and one retry, so a stalled service
 * makes a call fail in a few seconds (answered 503 with a retry hint, see
 * http/errors) rather than hang until the function's own deadline.
 */
export const awsClientDefaults = {
  maxAttempts: 2,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_500, throwOnRequestTimeout: true },
} as const;

/**
 * S3 moves whole tracks (tens of MB), so its deadline is on silence, not on
 * the whole transfer: a socket with no data for 10 s is given up.
 */
export const streamingClientDefaults = {
  maxAttempts: 2,
  requestHandler: { connectionTimeout: 1_000, socketTimeout: 10_000 },
} as const;
