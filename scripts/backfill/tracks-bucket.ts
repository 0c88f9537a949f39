import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoTrackDirectory } from '../../functions/src/adapters/dynamo/admin-directory';
import { dynamoGenerationStore } from '../../functions/src/adapters/dynamo/generation-store';
import { s3AudioStore } from '../../functions/src/adapters/s3/audio-store';
import { s3Of } from '../../functions/src/adapters/s3/client';
import { parseS3Url } from '../../functions/src/adapters/s3/links';
import type { Target } from './step';

/**
 * A target's table and tracks bucket, as the track backfills use them: the
 * emulators when `DYNAMODB_ENDPOINT` / `S3_ENDPOINT` are set (with the local
 * cloud's keys), AWS with the default credential chain otherwise. The target
 * has TABLE_NAME, TRACKS_BUCKET and AWS_REGION (the runner checks).
 */
export function tracksTableAndBucket(target: Target) {
  const region = target.AWS_REGION as string;
  const credentials =
    target.AWS_ACCESS_KEY_ID && target.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: target.AWS_ACCESS_KEY_ID, secretAccessKey: target.AWS_SECRET_ACCESS_KEY }
      : undefined;
  const dynamo = new DynamoDBClient({
    region,
    ...(target.DYNAMODB_ENDPOINT ? { endpoint: target.DYNAMODB_ENDPOINT, credentials } : {}),
  });
  const s3 = new S3Client({
    region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(target.S3_ENDPOINT ? { endpoint: target.S3_ENDPOINT, forcePathStyle: true, credentials } : {}),
  });
  const documents = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
  const table = target.TABLE_NAME as string;
  const bucket = target.TRACKS_BUCKET as string;
  const store = s3AudioStore(s3Of(s3), bucket);
  return {
    region,
    documents,
    table,
    tracks: dynamoTrackDirectory(documents, table),
    generations: dynamoGenerationStore(documents, table),
    files: {
      async read(stored: string): Promise<Uint8Array> {
        const location = parseS3Url(stored);
        if (location?.bucket !== bucket) throw new Error(`${stored} is not in the tracks bucket`);
        const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: location.key }));
        if (!object.Body) throw new Error(`${stored} is empty`);
        return object.Body.transformToByteArray();
      },
      put: (key: string, bytes: Uint8Array, contentType: string) => store.put(key, bytes, contentType),
      remove: (key: string) => store.remove(key),
      keyOf: (stored: string) => {
        const location = parseS3Url(stored);
        return location?.bucket === bucket ? location.key : undefined;
      },
    },
    close() {
      dynamo.destroy();
      s3.destroy();
    },
  };
}
