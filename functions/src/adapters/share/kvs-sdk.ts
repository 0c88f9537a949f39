/**
 * The CloudFront KeyValueStore client, loaded lazily through share-keys.ts. Its
 * API is signed with SigV4A, which the SDK finds once this package is imported
 * (as @aws-sdk/signature-v4a's documentation says).
 */
import '@aws-sdk/signature-v4a';

export {
  CloudFrontKeyValueStoreClient,
  DeleteKeyCommand,
  DescribeKeyValueStoreCommand,
  PutKeyCommand,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
