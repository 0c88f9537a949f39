import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoRateLimiter } from '../adapters/dynamo/rate-limiter';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3Links } from '../adapters/s3/links';
import { s3MultipartStore } from '../adapters/s3/multipart-store';
import { s3UploadStore, uploadKeyFromUrl } from '../adapters/s3/upload-store';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { uploadRoutes } from '../http/routes/uploads';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `uploads`: presigned audio uploads (single or in parts) and the check after they land. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const bucket = bucketFromEnv('UPLOADS_BUCKET');
    const links = s3Links(s3());
    built = createGroupHandler(
      'uploads',
      uploadRoutes({
        store: s3UploadStore(s3(), bucket),
        uploadLink: (key, options) => links.write({ bucket, key }, options),
        keyOfUploadUrl: (url) => uploadKeyFromUrl(url, bucket),
        newId: randomUUID,
        limiter: dynamoRateLimiter(dynamo().client, dynamo().tableName),
        multipart: s3MultipartStore(s3(), bucket),
      }),
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
