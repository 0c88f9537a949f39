import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { lazyPort } from '../adapters/lazy-sdk';
import { bucketFromEnv, s3 } from '../adapters/s3/client';
import { s3AudioLinker } from '../adapters/s3/links';
import { createGroupHandler, type LambdaHandler, lazyRoutes } from '../http/group-handler';
import { libraryRoutes } from '../http/routes/library';
import { audioLinks } from './audio-wiring';
import { sessionWiring } from './session-wiring';
import { publicOrigin } from './site-origin';

let built: LambdaHandler | undefined;

/**
 * Route group `generation`: generation, lyrics, the library and export
 * everything. Reading the library (its list, a track's status) is served
 * from the cold start; starting a generation, changing a track and exports
 * load with their first call (decision 042).
 */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    const generations = {
      generations: dynamoGenerationStore(client, tableName),
      quota: dynamoQuotaStore(client, tableName),
      clock: { now: () => new Date() },
      newId: randomUUID,
    };
    // The plans and the uploads serve only the calls that load on first use, so they load with them.
    const plansAndUploads = async () => {
      const [{ dynamoPlanRepository }, { s3UploadStore }] = await Promise.all([
        import('../adapters/dynamo/plan-repository'),
        import('../adapters/s3/upload-store'),
      ]);
      return {
        plans: dynamoPlanRepository(client, tableName),
        uploads: s3UploadStore(s3(), bucketFromEnv('UPLOADS_BUCKET')),
      };
    };
    const links = audioLinks();
    const playable = s3AudioLinker(links);
    built = createGroupHandler(
      'generation',
      {
        ...libraryRoutes({ generations, audioLinks: playable }),
        // Starting a generation (its schemas, the quota, the workflow's start) loads with the first one.
        ...lazyRoutes(
          [
            'generateTextToMusic',
            'generateAudioToMusic',
            'createVariation',
            'extendGeneration',
            'repaintGeneration',
            'generateLyrics',
          ],
          async () => {
            const [
              { generationRoutes },
              { sfn, stateMachineArnFromEnv, stepFunctionsStarter },
              { modelSettings },
              { plans, uploads },
            ] = await Promise.all([
              import('../http/routes/generation'),
              import('../adapters/sfn/step-functions'),
              import('./model-settings-wiring'),
              plansAndUploads(),
            ]);
            return generationRoutes({
              generations,
              plans,
              siteOrigin: publicOrigin(),
              workflow: stepFunctionsStarter(sfn(), stateMachineArnFromEnv()),
              uploads,
              // The lyrics helper's provider (fal's client, the settings key for its API key) loads with its first call.
              provider: lazyPort(
                async () => (await import('./music-wiring')).musicProviderFromEnv(client, tableName),
                ['writeLyrics'],
              ),
              audioLinks: playable,
              modelSettings: modelSettings(),
            });
          },
        ),
        // Changing a track (its share page, its stored audio) loads with the first change.
        ...lazyRoutes(['updateGeneration', 'deleteGeneration', 'downloadGeneration'], async () => {
          const [{ trackChangeRoutes }, { s3TrackAudio }, { sharePageWiring }, { plans, uploads }] =
            await Promise.all([
              import('../http/routes/library-changes'),
              import('../adapters/s3/track-audio'),
              import('./share-wiring'),
              plansAndUploads(),
            ]);
          return trackChangeRoutes({
            generations,
            plans,
            audioLinks: playable,
            trackAudio: s3TrackAudio(s3(), links, bucketFromEnv('TRACKS_BUCKET')),
            uploads,
            sharePages: sharePageWiring(),
          });
        }),
        // Stems (decision 044): asking for a separation and the stems zip load with their first call.
        ...lazyRoutes(['requestStems', 'downloadStems'], async () => {
          const [
            { stemsRoutes },
            { s3TrackAudio },
            { sfn, stateMachineArnFromEnv, stepFunctionsStemsStarter },
            { plans },
          ] = await Promise.all([
            import('../http/routes/stems'),
            import('../adapters/s3/track-audio'),
            import('../adapters/sfn/step-functions'),
            plansAndUploads(),
          ]);
          const trackAudio = s3TrackAudio(s3(), links, bucketFromEnv('TRACKS_BUCKET'));
          return stemsRoutes({
            generations,
            plans,
            workflow: stepFunctionsStemsStarter(sfn(), stateMachineArnFromEnv()),
            downloadLink: (stored, filename) => trackAudio.downloadLink(stored, filename),
          });
        }),
        // Export everything: its records, files and job start load with its first call.
        ...lazyRoutes(['startExport', 'getLatestExport', 'getExport'], async () => {
          const [{ exportRoutes }, { exportRouteDeps }] = await Promise.all([
            import('../http/routes/exports'),
            import('./export-wiring'),
          ]);
          return exportRoutes(exportRouteDeps());
        }),
      },
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
