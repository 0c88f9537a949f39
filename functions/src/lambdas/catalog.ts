import { dynamo } from '../adapters/dynamo/client';
import { dynamoCreatorNames } from '../adapters/dynamo/creator-names';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoGalleryIndex, dynamoLikeStore } from '../adapters/dynamo/like-store';
import { dynamoLyricsStore } from '../adapters/dynamo/lyrics-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { s3AudioLinker } from '../adapters/s3/links';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { catalogRoutes } from '../http/routes/catalog';
import { audioLinks } from './audio-wiring';
import { modelSettings } from './model-settings-wiring';
import { publicOrigin } from './site-origin';
import { viewerLookup } from './viewer-wiring';

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
        viewer: viewerLookup(),
        // Only public settings are answered: read as stored, without the settings key.
        settings: dynamoSettingsRepository(client, tableName),
        siteName: process.env.SITE_NAME ?? '',
        siteOrigin: publicOrigin(),
        lyrics: dynamoLyricsStore(client, tableName),
        modelSettings: modelSettings(),
        gallery: { index: dynamoGalleryIndex(client, tableName), clock: { now: () => new Date() } },
        likes: dynamoLikeStore(client, tableName),
        creators: dynamoCreatorNames(client, tableName),
      }),
    );
  }
  return built(event, context);
};
