import { dynamo } from '../adapters/dynamo/client';
import { dynamoModelSettingsStore } from '../adapters/dynamo/model-settings-store';
import { type ModelSettingsSource, modelSettingsSource } from '../domain/models/model-settings';

let source: ModelSettingsSource | undefined;

/**
 * The models' settings (decision 051), read again after a minute: one reader
 * per process, so a change saved through it is seen at once by every route
 * group the process serves, and by every other function within a minute.
 */
export function modelSettings(): ModelSettingsSource {
  if (!source) {
    const { client, tableName } = dynamo();
    source = modelSettingsSource(dynamoModelSettingsStore(client, tableName));
  }
  return source;
}
