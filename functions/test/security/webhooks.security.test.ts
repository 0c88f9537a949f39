import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { Browser, cloudEnv } from '../support/http';

// Webhooks verify their own signatures: forged ones change nothing, and a
// replayed genuine one is recognised.

const stripeEvent = (id: string) =>
  JSON.stringify({
    id,
    object: 'event',
    type: 'customer.subscription.updated',
    created: Math.floor(Date.now() / 1000),
    data: { object: { object: 'subscription', customer: `cus_${randomUUID().slice(0, 8)}` } },
  });

const deliver = (payload: string, signature?: string) =>
  new Browser().call('POST', '/api/webhooks/stripe', JSON.parse(payload), {
    ...(signature ? { 'stripe-signature': signature } : {}),
  });

describe.skipIf(!cloudEnv.STRIPE_WEBHOOK_SECRET)('webhooks', () => {
  it('refuse a Stripe event signed with another secret, an altered body or an old timestamp', async () => {
    const payload = stripeEvent(`evt_forged_${randomUUID()}`);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' });
    expect((await deliver(payload, forged)).status).toBe(400);

    const genuine = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: cloudEnv.STRIPE_WEBHOOK_SECRET as string,
    });
    const altered = payload.replace('customer.subscription.updated', 'customer.subscription.deleted');
    expect((await deliver(altered, genuine)).status).toBe(400);

    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: cloudEnv.STRIPE_WEBHOOK_SECRET as string,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await deliver(payload, stale)).status).toBe(400);
    expect((await deliver(payload)).status).toBe(400);
  });

  it('recognise a replayed genuine event', async () => {
    const payload = stripeEvent(`evt_replay_${randomUUID()}`);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: cloudEnv.STRIPE_WEBHOOK_SECRET as string,
    });
    const first = await deliver(payload, signature);
    expect(first.status).toBe(200);
    const again = await deliver(payload, signature);
    expect([again.status, again.body.outcome]).toEqual([200, 'duplicate']);
  });
});
