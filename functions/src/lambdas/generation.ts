import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationStore } from '../adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { dynamoQuotaStore } from '../adapters/dynamo/quota-store';
import { s3 } from '../adapters/s3/client';
import { s3AudioLinker, s3Links } from '../adapters/s3/links';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { generationRoutes } from '../http/routes/generation';
import { libraryRoutes } from '../http/routes/library';
import { sessionWiring } from './session-wiring';

let built: LambdaHandler | undefined;

/** Route group `generation`: generation, lyrics and the library. */
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
    built = createGroupHandler(
      'generation',
      {
        ...generationRoutes({}),
        ...libraryRoutes({ generations, plans, audioLinks: s3AudioLinker(s3Links(s3())) }),
      },
      { sessions: sessionWiring().sessions },
    );
  }
  return built(event, context);
};
