import { delimiter } from 'node:path';
import { TRACK_FRAME_TEMPLATE } from '@tunesmith/shared/pages';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { s3 } from '../adapters/s3/client';
import { s3CreatorSharePages } from '../adapters/share/creator-pages';
import { keyValueStoreShareKeys, sdkKeyValueStore } from '../adapters/share/share-keys';
import { fileShareTemplate, s3ShareTemplate } from '../adapters/share/share-pages';
import type { CreatorShareDeps } from '../domain/community/creator-share';
import { siteNameSource } from '../domain/settings/site';
import { log } from '../http/logger';
import { publicOrigin } from './site-origin';

/**
 * Creator documents (decision 059) in `SITE_BUCKET`, marked in `SHARE_KVS_ARN` (AWS), written from the
 * SPA shell: `index.html` in the bucket, or locally the first of `SHARE_TEMPLATE_FILE`'s files that is
 * not the track frame. Undefined where the function is given no site bucket: then no document is
 * written and `/@handle` previews as the plain shell.
 */
export function creatorShareFromEnv(env: NodeJS.ProcessEnv = process.env): CreatorShareDeps | undefined {
  const bucket = env.SITE_BUCKET;
  if (!bucket) return undefined;
  const { client, tableName } = dynamo();
  const files = (env.SHARE_TEMPLATE_FILE?.split(delimiter) ?? []).filter(
    (file) => file && !file.endsWith(TRACK_FRAME_TEMPLATE),
  );
  return {
    pages: s3CreatorSharePages(
      s3(),
      bucket,
      env.SHARE_KVS_ARN ? keyValueStoreShareKeys(sdkKeyValueStore(env.SHARE_KVS_ARN)) : undefined,
    ),
    template: files.length ? fileShareTemplate(...files) : s3ShareTemplate(s3(), bucket, ['index.html']),
    site: {
      origin: publicOrigin().replace(/\/+$/, ''),
      name: siteNameSource(dynamoSettingsRepository(client, tableName), env.SITE_NAME || 'Tunesmith', {
        onError: (error) => log.warn('site name unreadable; creator pages use SITE_NAME', { error }),
      }),
    },
  };
}
