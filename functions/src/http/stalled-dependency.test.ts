import { createServer, type Server, type Socket } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsClientDefaults } from '../adapters/client-options';
import { dynamoPlanRepository } from '../adapters/dynamo/plan-repository';
import { listActivePlans } from '../domain/plans/plan-service';
import { errorToResponse } from './errors';
import { createGroupHandler } from './group-handler';
import { json } from './responses';

// A database that accepts connections and never answers: the call must give
// up on its own deadline and answer 503 with a retry hint, not hang until the
// function's timeout and answer 500.

let stalled: Server;
const sockets: Socket[] = [];
let endpoint = '';

beforeAll(async () => {
  stalled = createServer((socket) => {
    sockets.push(socket); // read nothing, answer nothing
  });
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  const address = stalled.address();
  endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => stalled.close(resolve));
});

process.env.LOG_LEVEL = 'silent';

describe('a stalled dependency', () => {
  it('answers 503 with Retry-After once the client gives up', async () => {
    const documents = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        ...awsClientDefaults,
        region: 'us-east-1',
        endpoint,
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      }),
    );
    const plans = dynamoPlanRepository(documents, 'stalled');
    const handler = createGroupHandler('catalog', {
      listPlans: async () => json(200, await listActivePlans(plans)),
    });
    const event = {
      version: '2.0',
      routeKey: 'GET /api/plans',
      rawPath: '/api/plans',
      rawQueryString: '',
      headers: {},
      isBase64Encoded: false,
      requestContext: { http: { method: 'GET', path: '/api/plans', sourceIp: '127.0.0.1' } },
    } as unknown as APIGatewayProxyEventV2;
    const res = await handler(event, { awsRequestId: 'r1' } as Context);
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('2');
    expect(JSON.parse(res.body as string)).toEqual({
      message: 'The service is busy right now. Please try again in a moment.',
    });
    expect(sockets.length).toBeGreaterThan(0);
    documents.destroy();
  }, 20_000);

  it('maps throttling and refused connections to 503, and anything else to 500', () => {
    const throttled = Object.assign(new Error('slow down'), {
      name: 'ProvisionedThroughputExceededException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(errorToResponse(throttled).statusCode).toBe(503);
    expect(errorToResponse(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })).statusCode).toBe(
      503,
    );
    expect(errorToResponse(new Error('a bug')).statusCode).toBe(500);
  });
});
