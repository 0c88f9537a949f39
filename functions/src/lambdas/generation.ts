import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { falMusicProvider } from '../adapters/fal/fal-provider';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3AudioLinker, s3Links } from '../adapters/s3/links';
import { s3TrackAudio } from '../adapters/s3/track-audio';
import { s3UploadStore } from '../adapters/s3/upload-store';
import { sfn, stateMachineArnFromEnv, stepFunctionsStarter } from '../adapters/sfn/step-functions';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { generationRoutes } from '../http/routes/generation';
import { libraryRoutes } from '../http/routes/library';
import { musicProviderFromSettings } from '../workflow/music-provider-from-settings';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `generation`: generation, lyrics and the library. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    const generations = {
      generations: dynamoGenerationStore(client, tableName),
      quota: dynamoQuotaStore(client, tableName),
      clock: { now: () => new Date() },
      newId: randomUUID,
    };
    const plans = dynamoPlanRepository(client, tableName);
    built = createGroupHandler(
      'generation',
      {
        ...generationRoutes({
          generations,
          plans,
          workflow: stepFunctionsStarter(sfn(), stateMachineArnFromEnv()),
          uploads: s3UploadStore(s3(), bucketFromEnv('UPLOADS_BUCKET')),
          provider: musicProviderFromSettings({
            settings: dynamoSettingsRepository(client, tableName),
            ...(process.env.FAL_KEY ? { envKey: process.env.FAL_KEY } : {}),
            create: (key) =>
              falMusicProvider({
                key,
                ...(process.env.FAL_BASE_URL ? { baseUrl: process.env.FAL_BASE_URL } : {}),
              }),
          }),
        }),
        ...libraryRoutes({
          generations,
          plans,
          audioLinks: s3AudioLinker(s3Links(s3())),
          trackAudio: s3TrackAudio(s3(), s3Links(s3()), bucketFromEnv('TRACKS_BUCKET')),
          uploads: s3UploadStore(s3(), bucketFromEnv('UPLOADS_BUCKET')),
        }),
      },
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
