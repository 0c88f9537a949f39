import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsClientDefaults } from '../adapters/client-options';
import { dynamoSettingsRepository } from '../adapters/dynamo/settings-repository';
import { secretBoxFromEnv } from '../adapters/kms/secret-box';
import { traced } from '../adapters/tracing';
import { runtimeConfig } from '../config';
import { sealedSettings } from '../domain/admin/settings';
import type { SettingsRepository } from '../domain/settings/settings';

/**
 * Site settings as every function reads them: secrets sealed with KMS
 * (`SETTINGS_KMS_KEY_ID`) or, locally, the data directory's key
 * (`SETTINGS_LOCAL_KEY`), opened on read.
 */
export function settingsFromEnv(
  client: DynamoDBDocumentClient,
  tableName: string,
  env: NodeJS.ProcessEnv = process.env,
): SettingsRepository {
  return sealedSettings(
    dynamoSettingsRepository(client, tableName),
    secretBoxFromEnv(
      (kms) => traced(new kms.KMSClient({ ...awsClientDefaults, region: runtimeConfig().region })),
      env,
    ),
  );
}
