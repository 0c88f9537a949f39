import { dynamo } from '../adapters/dynamo/client';
import { dynamoGenerationRepository } from '../adapters/dynamo/generation-repository';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { createGroupHandler, type LambdaHandler } from '../http/group-handler';
import { catalogRoutes } from '../http/routes/catalog';

let built: LambdaHandler | undefined;

/** Route group `catalog`: plans, public tracks, track pages. */
export const handler: LambdaHandler = (event, context) => {
  if (!built) {
    const { client, tableName } = dynamo();
    built = createGroupHandler(
      'catalog',
      catalogRoutes({
        plans: dynamoPlanRepository(client, tableName),
        generations: dynamoGenerationRepository(client, tableName),
      }),
    );
  }
  return built(event, context);
};
