import { delimiter } from 'node:path';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { s3 } from '../adapters/s3/client';
import { keyValueStoreShareKeys, sdkKeyValueStore } from '../adapters/share/share-keys';
import { fileShareTemplate, s3SharePages, s3ShareTemplate } from '../adapters/share/share-pages';
import { siteNameSource } from '../domain/settings/site';
import type { SharePageDeps } from '../domain/tracks/share-page';
import { log } from '../http/logger';
import { publicOrigin } from './site-origin';

let built: SharePageDeps | undefined;

/** {@link sharePageWiring}, built from `env` for the site at `origin`. */
export function sharePagesFromEnv(env: NodeJS.ProcessEnv, origin: string): SharePageDeps {
  const { client, tableName } = dynamo();
  const bucket = env.SITE_BUCKET;
  if (!bucket) throw new Error('Missing environment variable SITE_BUCKET');
  const kvsArn = env.SHARE_KVS_ARN;
  const templateFiles = env.SHARE_TEMPLATE_FILE?.split(delimiter).filter(Boolean) ?? [];
  return {
    generations: dynamoGenerationStore(client, tableName),
    pages: s3SharePages(s3(), bucket, kvsArn ? keyValueStoreShareKeys(sdkKeyValueStore(kvsArn)) : undefined),
    template: templateFiles.length ? fileShareTemplate(...templateFiles) : s3ShareTemplate(s3(), bucket),
    site: {
      origin: origin.replace(/\/+$/, ''),
      name: siteNameSource(dynamoSettingsRepository(client, tableName), env.SITE_NAME || 'Tunesmith', {
        onError: (error) => log.warn('site name unreadable; share pages use SITE_NAME', { error }),
      }),
    },
  };
}

/**
 * Share documents (decision 024) on AWS and locally: written to `SITE_BUCKET`
 * (the site bucket; locally a bucket of s3rver's), marked for the edge in the
 * KeyValueStore `SHARE_KVS_ARN` (AWS only), from the track frame template in
 * the site bucket (`pages/track.html`, else the shell `index.html`; decision
 * 026) or, locally, the first of the files `SHARE_TEMPLATE_FILE` names. Built once.
 */
export function sharePageWiring(): SharePageDeps {
  built ??= sharePagesFromEnv(process.env, publicOrigin());
  return built;
}
