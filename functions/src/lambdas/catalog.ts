import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { s3AudioLinker } from '../adapters/s3/links';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { catalogRoutes } from '../http/routes/catalog';
import { audioLinks } from './audio-wiring';
import { sessionWiring } from './session-wiring';
import { publicOrigin } from './site-origin';

let built: LambdaHandler | undefined;

/** Route group `catalog`: plans, public tracks, track pages and their audio, the public site settings. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    built = createGroupHandler(
      'catalog',
      catalogRoutes({
        plans: dynamoPlanRepository(client, tableName),
        generations: dynamoGenerationStore(client, tableName),
        audioLinks: s3AudioLinker(audioLinks()),
        viewer: async (event) => {
          // Visitors carry no session cookies: the track page never waits on Cognito for them.
          const sessions = sessionWiring().sessions.user;
          if (!sessions.present(event)) return { cookies: [] };
          const session = await sessions.authenticate(event);
          return session ? { user: session.principal, cookies: session.cookies } : { cookies: [] };
        },
        // Only public settings are answered: read as stored, without the settings key.
        settings: dynamoSettingsRepository(client, tableName),
        siteName: process.env.SITE_NAME ?? '',
        siteOrigin: publicOrigin(),
      }),
    );
  }
  return built(event, context);
};
