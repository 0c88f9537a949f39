import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { falWebhookVerifier } from '../../adapters/fal/fal-webhook';
import { PaymentsError } from '../../domain/billing/ports';
import { aBasicPlan, aUser } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock, inMemoryUsers } from '../../testing/in-memory-accounts';
import {
  aSubscription,
  fakePayments,
  inMemoryBillingAccounts,
  inMemoryReceipts,
} from '../../testing/in-memory-billing';
import type { TaskCallbacks } from '../../workflow/steps';
import { inMemoryCallbackStore } from '../../workflow/testing';
import type { RouteContext } from '../group-handler';
import { webhookRoutes } from './webhooks';

const NOW = new Date('2026-11-18T12:00:00.000Z');
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1' }] };

/** A delivery signed the way fal signs it, over exactly these bytes. */
function delivery(body: string, options: { base64?: boolean; key?: typeof privateKey } = {}) {
  const requestId = (JSON.parse(body) as { request_id: string }).request_id;
  const timestamp = String(Math.floor(NOW.getTime() / 1000));
  const digest = createHash('sha256').update(body).digest('hex');
  const signature = sign(
    null,
    Buffer.from(`${requestId}\nuser-1\n${timestamp}\n${digest}`),
    options.key ?? privateKey,
  ).toString('hex');
  return {
    headers: {
      'content-type': 'application/json',
      'x-fal-webhook-request-id': requestId,
      'x-fal-webhook-user-id': 'user-1',
      'x-fal-webhook-timestamp': timestamp,
      'x-fal-webhook-signature': signature,
    },
    body: options.base64 ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded: options.base64 ?? false,
  } as unknown as APIGatewayProxyEventV2;
}

function setup() {
  const callbacks = inMemoryCallbackStore();
  const answered: Array<{ token: string; ok: boolean; detail: unknown }> = [];
  const done = new Set<string>();
  const tasks: TaskCallbacks = {
    async success(token, output) {
      if (done.has(token)) throw Object.assign(new Error('answered'), { name: 'TaskTimedOut' });
      done.add(token);
      answered.push({ token, ok: true, detail: output });
    },
    async failure(token, error) {
      if (done.has(token)) throw Object.assign(new Error('answered'), { name: 'TaskTimedOut' });
      done.add(token);
      answered.push({ token, ok: false, detail: error });
    },
  };
  const outcomes: string[] = [];
  const routes = webhookRoutes({
    metrics: { countOutcome: (name, outcome) => outcomes.push(`${name}:${outcome}`) },
    verifier: falWebhookVerifier({
      jwksUrl: 'https://keys.example/jwks.json',
      fetch: (async () => new Response(JSON.stringify(jwks))) as typeof fetch,
    }),
    workflow: { callbacks, tasks },
    clock: fakeClock(NOW.toISOString()),
    billing: () => {
      throw new Error('the fal webhook needs no billing');
    },
  });
  const post = async (event: APIGatewayProxyEventV2) => {
    const result = await routes.falWebhook?.(event, {} as RouteContext);
    return { status: result?.statusCode, body: JSON.parse(String(result?.body)) };
  };
  return { callbacks, answered, post, outcomes };
}

const ok = JSON.stringify({ request_id: 'req-1', status: 'OK', payload: { seed: 1 } });

describe('POST /api/webhooks/fal', () => {
  it('verifies the raw body (base64 from API Gateway) and answers the waiting task once per request id', async () => {
    const { callbacks, answered, post, outcomes } = setup();
    await callbacks.register('req-1', 'token-1');

    const first = await post(delivery(ok, { base64: true }));
    const retried = await post(delivery(ok));

    expect(first).toEqual({ status: 200, body: { ok: true } });
    expect(retried).toEqual({ status: 200, body: { ok: true } });
    expect(answered).toEqual([{ token: 'token-1', ok: true, detail: { status: 'OK' } }]);
    expect(outcomes).toEqual(['FalWebhooks:accepted', 'FalWebhooks:accepted']);
  });

  it('passes an ERROR delivery on as a task failure', async () => {
    const { callbacks, answered, post } = setup();
    await callbacks.register('req-2', 'token-2');
    const body = JSON.stringify({ request_id: 'req-2', status: 'ERROR', payload: null, error: 'boom' });

    expect((await post(delivery(body))).status).toBe(200);

    expect(answered).toEqual([{ token: 'token-2', ok: false, detail: 'Provider.Failed' }]);
  });

  it('keeps a delivery that beats the task token for the wait step', async () => {
    const { callbacks, answered, post } = setup();

    expect((await post(delivery(ok))).status).toBe(200);

    expect(answered).toEqual([]);
    expect(await callbacks.register('req-1', 'token-1')).toEqual({ outcome: { status: 'OK' } });
  });

  it('refuses 401 a body changed after signing, a foreign key and a missing signature', async () => {
    const { answered, callbacks, post, outcomes } = setup();
    await callbacks.register('req-1', 'token-1');
    const tampered = delivery(ok);
    tampered.body = ok.replace('"seed":1', '"seed":2');
    const foreign = delivery(ok, { key: generateKeyPairSync('ed25519').privateKey });
    const unsigned = { ...delivery(ok), headers: { 'content-type': 'application/json' } };

    for (const event of [tampered, foreign, unsigned]) {
      expect(await post(event)).toEqual({ status: 401, body: { message: 'Invalid webhook signature' } });
    }
    expect(answered).toEqual([]);
    expect(new Set(outcomes)).toEqual(new Set(['FalWebhooks:rejected']));
  });
});

describe('POST /api/webhooks/stripe', () => {
  function stripeSetup() {
    const users = inMemoryUsers();
    users.all.set('u1', aUser({ id: 'u1', stripeCustomerId: 'cus_1' }));
    const accounts = inMemoryBillingAccounts(users);
    accounts.directory.set('cus_1', 'u1');
    const payments = fakePayments();
    payments.setSubscription(aSubscription({ priceId: 'price_basic_monthly' }));
    const warnings: string[] = [];
    const billing = {
      accounts,
      receipts: inMemoryReceipts(),
      plans: inMemoryPlans([aBasicPlan({ id: 'basic', monthlyPriceId: 'price_basic_monthly' })]),
      payments,
      clock: fakeClock(NOW.toISOString()),
      audit: { record: async () => {} },
      newId: () => 'id-1',
      siteName: async () => 'Tunesmith',
      log: { warn: (message: string) => warnings.push(message) },
    };
    const outcomes: string[] = [];
    const routes = webhookRoutes({
      metrics: { countOutcome: (name, outcome) => outcomes.push(`${name}:${outcome}`) },
      verifier: { verify: async () => undefined },
      workflow: {
        callbacks: inMemoryCallbackStore(),
        tasks: { success: async () => {}, failure: async () => {} },
      },
      clock: billing.clock,
      billing: () => billing,
    });
    const post = async (signature: string | undefined) => {
      const body = JSON.stringify({
        id: 'evt_1',
        type: 'invoice.payment_succeeded',
        customerId: 'cus_1',
        userId: null,
      });
      const event = {
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'stripe-signature': signature } : {}),
        },
        body,
        isBase64Encoded: false,
      } as unknown as APIGatewayProxyEventV2;
      const result = await routes.stripeWebhook?.(event, {} as RouteContext);
      return { status: result?.statusCode, body: JSON.parse(String(result?.body)) };
    };
    return { users, payments, post, warnings, outcomes };
  }

  it('handles a verified event and says what it did', async () => {
    const { users, post, outcomes } = stripeSetup();
    expect(await post('valid')).toEqual({ status: 200, body: { received: true, outcome: 'synced' } });
    expect(users.all.get('u1')?.planStatus).toBe('active');
    expect(await post('valid')).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    expect(outcomes).toEqual(['StripeWebhooks:synced', 'StripeWebhooks:duplicate']);
  });

  it('answers 400 to a bad or missing signature and changes nothing', async () => {
    const { users, post, outcomes } = stripeSetup();
    const before = users.all.get('u1');
    for (const signature of ['t=1,v1=forged', undefined]) {
      expect(await post(signature)).toEqual({ status: 400, body: { message: 'Invalid signature' } });
    }
    expect(users.all.get('u1')).toEqual(before);
    expect(outcomes).toEqual(['StripeWebhooks:rejected', 'StripeWebhooks:rejected']);
  });

  it('answers 503 (so Stripe retries) while no webhook secret is configured', async () => {
    const { payments, post, warnings } = stripeSetup();
    payments.failNext(new PaymentsError('not-configured', 'No Stripe webhook secret is configured'));
    await expect(post('valid')).rejects.toMatchObject({ kind: 'unavailable' });
    expect(warnings).toEqual(['stripe webhook not verifiable']);
  });
});
