import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3AudioLinker } from '../adapters/s3/links';
import { s3TrackAudio } from '../adapters/s3/track-audio';
import { s3UploadStore } from '../adapters/s3/upload-store';
import { sfn, stateMachineArnFromEnv, stepFunctionsStarter } from '../adapters/sfn/step-functions';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { exportRoutes } from '../http/routes/exports';
import { generationRoutes } from '../http/routes/generation';
import { libraryRoutes } from '../http/routes/library';
import { audioLinks } from './audio-wiring';
import { exportRouteDeps } from './export-wiring';
import { musicProviderFromEnv } from './music-wiring';
import { sessionWiring } from './session-wiring';
import { sharePageWiring } from './share-wiring';
import { publicOrigin } from './site-origin';

let built: LambdaHandler | undefined;

/** Route group `generation`: generation, lyrics, the library and export everything. */
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
    const uploads = s3UploadStore(s3(), bucketFromEnv('UPLOADS_BUCKET'));
    const links = audioLinks();
    const playable = s3AudioLinker(links);
    built = createGroupHandler(
      'generation',
      {
        ...generationRoutes({
          generations,
          plans,
          siteOrigin: publicOrigin(),
          workflow: stepFunctionsStarter(sfn(), stateMachineArnFromEnv()),
          uploads,
          provider: musicProviderFromEnv(client, tableName),
          audioLinks: playable,
        }),
        ...libraryRoutes({
          generations,
          plans,
          audioLinks: playable,
          trackAudio: s3TrackAudio(s3(), links, bucketFromEnv('TRACKS_BUCKET')),
          uploads,
          sharePages: sharePageWiring(),
        }),
        ...exportRoutes(exportRouteDeps()),
      },
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
