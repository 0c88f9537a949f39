import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoCreatorNames } from '../adapters/dynamo/creator-names';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoRemixIndex } from '../adapters/dynamo/remix-index';
import { type GroupHandlers, lazyRoutes } from '../http/group-handler';
import { remixReadRoutes } from '../http/routes/remixes';
import { lazyAudioLinks } from './lazy-audio-links';
import { publicOrigin } from './site-origin';
import { viewerLookup } from './viewer-wiring';

/**
 * The `community` group's handlers for remixes with credit (decision 060): the permission and the
 * lists from the cold start; a remix's start (the quota, plans, models and the workflow) with its
 * first call. Env: TABLE_NAME, STATE_MACHINE_ARN, PUBLIC_ORIGIN and the audio signing settings.
 */
export function remixHandlers(): GroupHandlers {
  const { client, tableName } = dynamo();
  const generations = dynamoGenerationStore(client, tableName);
  const clock = { now: () => new Date() };
  const remixes = dynamoRemixIndex(client, tableName);
  const creators = dynamoCreatorNames(client, tableName);
  return {
    ...remixReadRoutes({
      generations,
      clock,
      remixes,
      creators,
      audioLinks: lazyAudioLinks,
      viewer: viewerLookup(),
    }),
    ...lazyRoutes(['remixTrack'], async () => {
      const [
        { remixStartRoutes },
        { dynamoQuotaStore },
        { dynamoPlanRepository },
        { sfn, stateMachineArnFromEnv, stepFunctionsStarter },
        { modelSettings },
      ] = await Promise.all([
        import('../http/routes/remix-start'),
        import('../adapters/dynamo/quota-store'),
        import('../adapters/dynamo/plan-repository'),
        import('../adapters/sfn/step-functions'),
        import('./model-settings-wiring'),
      ]);
      const plans = dynamoPlanRepository(client, tableName);
      return remixStartRoutes({
        start: {
          generations,
          quota: dynamoQuotaStore(client, tableName),
          clock,
          newId: randomUUID,
          plans,
          siteOrigin: publicOrigin(),
          modelSettings: modelSettings(),
          workflow: stepFunctionsStarter(sfn(), stateMachineArnFromEnv()),
        },
        plans,
        remixes,
        creators,
      });
    }),
  };
}
