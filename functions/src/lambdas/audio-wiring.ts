import { audioSigningFromEnv, cloudFrontReadLinks } from '../adapters/cloudfront/audio-links';
import { s3 } from '../adapters/s3/client';
import { type ReadLinks, s3Links } from '../adapters/s3/links';

let built: ReadLinks | undefined;

/**
 * Play and download links of the route groups that hand out audio (catalog,
 * generation, admin): CloudFront signed URLs on the site's origin (decision
 * 008). Env: PUBLIC_ORIGIN, TRACKS_BUCKET, AUDIO_SIGNING_KEY_PAIR_ID and
 * AUDIO_SIGNING_SECRET_ARN (AWS) or AUDIO_SIGNING_PRIVATE_KEY (local cloud),
 * read when the first link is made.
 */
export function audioLinks(): ReadLinks {
  built ??= cloudFrontReadLinks(audioSigningFromEnv(), {
    read: (location, options) => s3Links(s3()).read(location, options),
  });
  return built;
}
