/**
 * Which tracks have a share document, as the edge sees it (decision 024): a
 * key per track id in a CloudFront KeyValueStore that the site's viewer-request
 * function reads (`infra/lib/web.ts`). Every write names the store's current
 * ETag (`IfMatch`); a write that loses a race with another is refused with a
 * conflict and tried again on a fresh ETag.
 */
import type { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { runtimeConfig } from '../../config';
import { awsClientDefaults } from '../client-options';
import { type LazySdk, lazySdk } from '../lazy-sdk';
import { traced } from '../tracing';

/** The edge's record of which tracks have a document. */
export interface ShareKeys {
  /** Marks the track as having a document. */
  put(id: string): Promise<void>;
  /** Unmarks it; a key already gone is fine. */
  delete(id: string): Promise<void>;
}

/** The store's calls, as the adapter needs them (the SDK's, or a fake in tests). */
export interface KeyValueStoreApi {
  etag(): Promise<string>;
  putKey(input: { key: string; value: string; ifMatch: string }): Promise<void>;
  deleteKey(input: { key: string; ifMatch: string }): Promise<void>;
}

/** The value every key holds: the edge only asks whether the key exists. */
export const SHARE_KEY_VALUE = '1';

const named = (error: unknown, name: string) =>
  !!error && typeof error === 'object' && (error as { name?: unknown }).name === name;

/**
 * {@link ShareKeys} over a store's API: each write reads the ETag and sends it
 * as `IfMatch`; a `ConflictException` (someone wrote in between) is tried
 * again with a fresh ETag, up to `attempts` times in all.
 */
export function keyValueStoreShareKeys(
  api: KeyValueStoreApi,
  options: { attempts?: number } = {},
): ShareKeys {
  const attempts = options.attempts ?? 5;
  const withFreshEtag = async (write: (ifMatch: string) => Promise<void>) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await write(await api.etag());
        return;
      } catch (error) {
        if (!named(error, 'ConflictException') || attempt >= attempts) throw error;
      }
    }
  };
  return {
    put: (id) => withFreshEtag((ifMatch) => api.putKey({ key: id, value: SHARE_KEY_VALUE, ifMatch })),
    delete: (id) =>
      withFreshEtag(async (ifMatch) => {
        try {
          await api.deleteKey({ key: id, ifMatch });
        } catch (error) {
          if (!named(error, 'ResourceNotFoundException')) throw error;
        }
      }),
  };
}

type KvsSdk = LazySdk<typeof import('./kvs-sdk'), CloudFrontKeyValueStoreClient>;

let cached: KvsSdk | undefined;

function kvs(): KvsSdk {
  cached ??= lazySdk(
    () => import('./kvs-sdk'),
    (sdk) =>
      traced(new sdk.CloudFrontKeyValueStoreClient({ ...awsClientDefaults, region: runtimeConfig().region })),
  );
  return cached;
}

/** The store's API through the SDK, for the store `arn` (`SHARE_KVS_ARN`). */
export function sdkKeyValueStore(arn: string, client: KvsSdk = kvs()): KeyValueStoreApi {
  return {
    async etag() {
      const { sdk, client: c } = await client();
      const described = await c.send(new sdk.DescribeKeyValueStoreCommand({ KvsARN: arn }));
      if (!described.ETag) throw new Error('The key value store answered without an ETag');
      return described.ETag;
    },
    async putKey({ key, value, ifMatch }) {
      const { sdk, client: c } = await client();
      await c.send(new sdk.PutKeyCommand({ KvsARN: arn, Key: key, Value: value, IfMatch: ifMatch }));
    },
    async deleteKey({ key, ifMatch }) {
      const { sdk, client: c } = await client();
      await c.send(new sdk.DeleteKeyCommand({ KvsARN: arn, Key: key, IfMatch: ifMatch }));
    },
  };
}
