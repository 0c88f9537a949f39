import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { generationRoutes } from '../http/routes/generation';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `generation`: generation, lyrics and the library. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    built = createGroupHandler(
      'generation',
      generationRoutes({
        generations: {
          generations: dynamoGenerationStore(client, tableName),
          quota: dynamoQuotaStore(client, tableName),
          clock: { now: () => new Date() },
          newId: randomUUID,
        },
        plans: dynamoPlanRepository(client, tableName),
      }),
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
