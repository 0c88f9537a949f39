import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { v1TrackSchema } from '@tunesmith/shared/api-v1-schemas';
import {
  developerMessages,
  WEBHOOK_SIGNATURE_HEADER,
  webhookPayloadSchema,
} from '@tunesmith/shared/developer-api';
import { afterAll, expect, it } from 'vitest';
import { dynamoWebhookEndpoints } from '../src/adapters/dynamo/webhook-store';
import { developerKeys } from '../src/data/developer-keys';
import { keys } from '../src/data/keys';
import { verifyWebhookSignature } from '../src/domain/developers/webhook-signature';
import { signedInUser, testPassword } from './support/accounts';
import { direct } from './support/direct';
import type { Browser } from './support/http';
import { cloudEnv, localOnly } from './support/run';

// Webhooks for developers (decision 053) against the local cloud: endpoints
// through the session routes, a track's events delivered signed to a
// receiver on 127.0.0.1 (the local cloud allows loopback and http for
// itself), retries logged, and the test event.

const store = direct();
const receivers: http.Server[] = [];

afterAll(async () => {
  store.close();
  await Promise.all(
    receivers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

interface Delivered {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 answering each request with the next of `statuses` (the last repeats). */
async function receiver(statuses: number[] = [200]) {
  const got: Delivered[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses[Math.min(got.length - 1, statuses.length - 1)] ?? 200).end('ok');
    });
  });
  receivers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, got };
}

const item = async (key: { pk: string; sk: string }) =>
  (await store.documents.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true })))
    .Item;

const PIPELINE_TEST_TIMEOUT_MS = 120_000;
const WAIT_MS = 90_000;

async function eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen within ${WAIT_MS / 1000} s`);
}

type DeliveryView = {
  id: string;
  event: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: string | null;
};

const deliveriesOf = async (browser: Browser, endpointId: string) => {
  const res = await browser.get(`/api/user/webhooks/${endpointId}/deliveries`);
  expect(res.status).toBe(200);
  return res.body.deliveries as DeliveryView[];
};

async function createEndpoint(browser: Browser, url: string, events: string[]) {
  const res = await browser.post('/api/user/webhooks', { url, events });
  expect(res.status).toBe(201);
  return res.body as { id: string; url: string; events: string[]; secret: string; createdAt: string };
}

/** Runs the delivery function as its schedule does (through the local cloud's Lambda endpoint). */
async function runSchedule(): Promise<void> {
  const lambda = new LambdaClient({
    region: cloudEnv.AWS_REGION ?? 'us-east-1',
    endpoint: cloudEnv.LAMBDA_ENDPOINT,
    credentials: {
      accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID ?? 'local',
      secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY ?? 'local',
    },
  });
  try {
    const queued = await lambda.send(
      new InvokeCommand({
        FunctionName: cloudEnv.WEBHOOKS_FUNCTION_NAME,
        InvocationType: 'Event',
        Payload: new TextEncoder().encode(
          JSON.stringify({ source: 'aws.events', 'detail-type': 'Scheduled Event' }),
        ),
      }),
    );
    expect(queued.StatusCode).toBe(202);
  } finally {
    lambda.destroy();
  }
}

localOnly('a receiver on 127.0.0.1 and the embedded provider').describe('webhooks for developers', () => {
  it('creates an endpoint whose secret is shown once, lists and deletes it', async () => {
    const { browser } = await signedInUser();
    const { url } = await receiver();
    const created = await createEndpoint(browser, url, ['track.completed', 'track.completed']);
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(created).toMatchObject({ url, events: ['track.completed'] });
    const listed = await browser.get('/api/user/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.endpoints).toEqual([
      { id: created.id, url, events: ['track.completed'], createdAt: created.createdAt },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
    expect((await browser.call('DELETE', `/api/user/webhooks/${created.id}`)).status).toBe(204);
    expect((await browser.get('/api/user/webhooks')).body.endpoints).toEqual([]);
  });

  it('refuses an invalid URL, a private address and a sixth endpoint with their messages', async () => {
    const { browser } = await signedInUser();
    const refused = async (url: string) => {
      const res = await browser.post('/api/user/webhooks', { url, events: ['track.failed'] });
      expect(res.status).toBe(400);
      return res.body.message;
    };
    expect(await refused('ftp://example.com/hook')).toBe(developerMessages.webhookUrlLocalOnly);
    expect(await refused('not a url')).toBe(developerMessages.webhookUrlLocalOnly);
    expect(await refused('http://169.254.169.254/latest/meta-data')).toBe(
      developerMessages.webhookUrlPrivate,
    );
    expect(await refused('http://10.0.0.8/hook')).toBe(developerMessages.webhookUrlPrivate);
    const noEvents = await browser.post('/api/user/webhooks', { url: 'https://example.com/', events: [] });
    expect(noEvents).toMatchObject({
      status: 400,
      body: { message: developerMessages.webhookEventsRequired },
    });
    expect((await browser.get('/api/user/webhooks')).body.endpoints).toEqual([]);

    // At most five, even when the creates race.
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        browser.post('/api/user/webhooks', { url: 'https://example.com/hook', events: ['track.failed'] }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of results.filter((r) => r.status !== 201))
      expect(r).toMatchObject({ status: 409, body: { message: developerMessages.tooManyWebhooks } });
    expect((await browser.get('/api/user/webhooks')).body.endpoints).toHaveLength(5);
  });

  it("answers 404 for another user's endpoint, and leaves it alone", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const { url, got } = await receiver();
    const theirs = await createEndpoint(owner.browser, url, ['track.completed']);
    for (const res of [
      await other.browser.call('DELETE', `/api/user/webhooks/${theirs.id}`),
      await other.browser.get(`/api/user/webhooks/${theirs.id}/deliveries`),
      await other.browser.post(`/api/user/webhooks/${theirs.id}/test`),
    ])
      expect(res).toMatchObject({ status: 404, body: { message: developerMessages.webhookNotFound } });
    expect((await owner.browser.get('/api/user/webhooks')).body.endpoints).toHaveLength(1);
    expect(got).toEqual([]);
  });

  it('sends a test event at once, signed, and logs it', async () => {
    const { browser } = await signedInUser();
    const { url, got } = await receiver();
    const endpoint = await createEndpoint(browser, url, ['track.completed']);
    const res = await browser.post(`/api/user/webhooks/${endpoint.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      event: 'webhook.test',
      status: 'delivered',
      attempts: 1,
      responseStatus: 200,
    });
    expect(got).toHaveLength(1);
    const [delivery] = got as [Delivered];
    const header = delivery.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    expect(verifyWebhookSignature(endpoint.secret, header, delivery.body)).toBe(true);
    expect(delivery.headers.cookie).toBeUndefined();
    expect(delivery.body).not.toContain(endpoint.secret);
    expect(webhookPayloadSchema.parse(JSON.parse(delivery.body))).toMatchObject({ type: 'webhook.test' });
    expect(await deliveriesOf(browser, endpoint.id)).toMatchObject([
      { id: res.body.id, status: 'delivered' },
    ]);
  });

  it('delivers a signed track.completed with the track when a generation completes', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { browser } = await signedInUser();
    const { url, got } = await receiver();
    const endpoint = await createEndpoint(browser, url, ['track.completed', 'track.failed']);
    const started = await browser.post('/api/generate-text-to-music', {
      tags: 'ambient, pads',
      duration: 5,
      title: 'Hook Test',
    });
    expect(started.status).toBe(201);
    const trackId = String(started.body.generationId);
    const delivery = await eventually('the track.completed delivery', async () => got[0]);
    const header = delivery.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(endpoint.secret, header, delivery.body)).toBe(true);
    expect(verifyWebhookSignature('whsec_someoneelse', header, delivery.body)).toBe(false);
    const payload = webhookPayloadSchema.parse(JSON.parse(delivery.body));
    expect(payload).toMatchObject({ type: 'track.completed' });
    expect(payload.id).toMatch(/^evt_/);
    const track = v1TrackSchema.parse(payload.data.track);
    expect(track).toMatchObject({
      id: trackId,
      status: 'completed',
      title: 'Hook Test',
      tags: 'ambient, pads',
    });
    expect(track.provenanceUrl).toContain(`/api/track/${trackId}/provenance`);
    const [logged] = await eventually('the delivery logged', async () => {
      const list = await deliveriesOf(browser, endpoint.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(logged).toMatchObject({ event: 'track.completed', attempts: 1, responseStatus: 200, error: null });
  });

  it('delivers track.failed when a generation fails, retried after a 500 and logged', {
    timeout: PIPELINE_TEST_TIMEOUT_MS,
  }, async () => {
    const { browser, id: userId } = await signedInUser();
    const { url, got } = await receiver([500, 200]);
    const endpoint = await createEndpoint(browser, url, ['track.failed']);
    const started = await browser.post('/api/generate-text-to-music', {
      tags: 'pop, fail:provider',
      duration: 5,
    });
    expect(started.status).toBe(201);
    const trackId = String(started.body.generationId);

    // A try is claimed (its attempt counted) before it is sent; its outcome is logged after the answer.
    const [first] = await eventually('the first try logged', async () => {
      const list = await deliveriesOf(browser, endpoint.id);
      return list[0] && list[0].attempts >= 1 && (list[0].responseStatus != null || list[0].error != null)
        ? list
        : undefined;
    });
    expect(first).toMatchObject({
      event: 'track.failed',
      status: 'pending',
      attempts: 1,
      responseStatus: 500,
    });
    expect(first?.error).toBe('The endpoint answered 500');
    expect(Date.parse(first?.nextAttemptAt as string)).toBeGreaterThan(Date.now());
    const payload = webhookPayloadSchema.parse(JSON.parse((got[0] as Delivered).body));
    expect(v1TrackSchema.parse(payload.data.track)).toMatchObject({ id: trackId, status: 'failed' });

    // A minute passes: the try is due, and the schedule sends it.
    const now = new Date().toISOString();
    await store.documents.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: developerKeys.webhookDelivery(first?.id as string),
        UpdateExpression: 'SET nextAttemptAt = :now, gsi2sk = :due',
        ExpressionAttributeValues: {
          ':now': now,
          ':due': developerKeys.webhookDeliveryDue(now, first?.id as string).gsi2sk,
        },
      }),
    );
    await runSchedule();
    const [second] = await eventually('the retry logged', async () => {
      const list = await deliveriesOf(browser, endpoint.id);
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(second).toMatchObject({ attempts: 2, responseStatus: 200, error: null, nextAttemptAt: null });
    expect(got).toHaveLength(2);
    // The same event, signed anew for the retry.
    expect((got[1] as Delivered).body).toBe((got[0] as Delivered).body);
    const header = (got[1] as Delivered).headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    expect(verifyWebhookSignature(endpoint.secret, header, (got[1] as Delivered).body)).toBe(true);

    // Deleting the account removes its endpoints, their count and their deliveries.
    const deleted = await browser.call('DELETE', '/api/user', { currentPassword: testPassword });
    expect(deleted.status).toBe(202);
    await eventually('the account deleted', async () => ((await item(keys.user(userId))) ? undefined : true));
    expect(await dynamoWebhookEndpoints(store.documents, store.tableName).list(userId)).toEqual([]);
    expect(await item(developerKeys.webhookCount(userId))).toBeUndefined();
    expect(await item(developerKeys.webhookDelivery(first?.id as string))).toBeUndefined();
  });
});
