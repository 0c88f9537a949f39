import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { falMusicProvider } from '../adapters/fal/fal-provider';
import type { MusicProvider } from '../domain/generations/music-provider';
import { musicProviderFromSettings } from '../workflow/music-provider-from-settings';
import { settingsFromEnv } from './settings-wiring';

/**
 * fal.ai with the key from the `fal_api_key` site setting, else `FAL_KEY`;
 * `FAL_BASE_URL` (locally) sends its requests to the embedded provider.
 */
export function musicProviderFromEnv(
  client: DynamoDBDocumentClient,
  tableName: string,
  env: NodeJS.ProcessEnv = process.env,
): MusicProvider {
  return musicProviderFromSettings({
    settings: settingsFromEnv(client, tableName, env),
    ...(env.FAL_KEY ? { envKey: env.FAL_KEY } : {}),
    create: (key) => falMusicProvider({ key, ...(env.FAL_BASE_URL ? { baseUrl: env.FAL_BASE_URL } : {}) }),
  });
}
