/**
 * The bench's baseline server (see bench-cloud.ts): a bare Node HTTP server
 * that answers every request with the query `GET /api/plans` runs, made with
 * the raw SDK against the local cloud's DynamoDB. Takes the cloud's endpoint,
 * table, region and credentials as JSON in argv[2]; once listening, prints one
 * JSON line with its url; stops when its parent goes away (stdin closes).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys, tableDesign } from '../functions/src/data/keys';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const config = JSON.parse(process.argv[2] ?? '{}') as {
  endpoint: string;
  region: string;
  tableName: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
};
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({ region: config.region, endpoint: config.endpoint, credentials: config.credentials }),
);

const server = createServer((_req, res) => {
  documents
    .send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: tableDesign.indexes.byOwner.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': tableDesign.indexes.byOwner.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.plansCollection },
      }),
    )
    .then((out) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify((out.Items ?? []).filter((plan) => plan.isActive !== false)));
    })
    .catch(() => {
      res.writeHead(500);
      res.end();
    });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
const stop = () => {
  documents.destroy();
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
