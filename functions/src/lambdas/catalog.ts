import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoLyricsStore } from '../adapters/dynamo/lyrics-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { lazySdk } from '../adapters/lazy-sdk';
import { s3AudioLinker } from '../adapters/s3/links';
import { cookieJar } from '../http/cookies';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { catalogRoutes } from '../http/routes/catalog';
import { carriesUserSession } from '../http/session';
import { audioLinks } from './audio-wiring';
import { modelSettings } from './model-settings-wiring';
import { publicOrigin } from './site-origin';

/** The user sessions (Cognito's token check and the profiles), loaded for the first request that carries one. */
const userSessions = lazySdk(
  () => import('./session-wiring'),
  (wiring) => wiring.sessionWiring().sessions.user,
);

let built: LambdaHandler | undefined;

/** Route group `catalog`: plans, public tracks, track pages and their audio, the public site settings. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    const signedIn = carriesUserSession(cookieJar(publicOrigin()));
    built = createGroupHandler(
      'catalog',
      catalogRoutes({
        plans: dynamoPlanRepository(client, tableName),
        generations: dynamoGenerationStore(client, tableName),
        audioLinks: s3AudioLinker(audioLinks()),
        viewer: async (event) => {
          // Visitors carry no session cookies: the track page never waits on Cognito, nor loads its code, for them.
          if (!signedIn(event)) return { cookies: [] };
          const { client: sessions } = await userSessions();
          const session = await sessions.authenticate(event);
          return session ? { user: session.principal, cookies: session.cookies } : { cookies: [] };
        },
        // Only public settings are answered: read as stored, without the settings key.
        settings: dynamoSettingsRepository(client, tableName),
        siteName: process.env.SITE_NAME ?? '',
        siteOrigin: publicOrigin(),
        lyrics: dynamoLyricsStore(client, tableName),
        modelSettings: modelSettings(),
      }),
    );
  }
  return built(event, context);
};
