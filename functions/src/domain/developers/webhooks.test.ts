import { v1TrackSchema } from '@tunesmith/shared/api-v1-schemas';
import {
  developerMessages,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookEventType,
  webhookPayloadSchema,
} from '@tunesmith/shared/developer-api';
import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { memoryWebhookDeps } from '../../testing/in-memory-webhooks';
import { DomainError } from '../errors';
import { classifyAddress, literalAddress } from './addresses';
import { signWebhook, verifyWebhookSignature } from './webhook-signature';
import {
  afterTry,
  attemptDelivery,
  checkWebhookUrl,
  createWebhookEndpoint,
  deleteUserWebhooks,
  deleteWebhookEndpoint,
  deliverWebhooks,
  deliveryIdsOf,
  listWebhookDeliveries,
  listWebhookEndpoints,
  raiseTrackEvent,
  sendWebhookTestEvent,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  type WebhookDelivery,
} from './webhooks';

const create = (
  h: ReturnType<typeof memoryWebhookDeps>,
  userId = 'u1',
  events: WebhookEventType[] = ['track.completed'],
) => createWebhookEndpoint(h.deps, userId, { url: 'https://hooks.example.com/in', events });

const messageOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error instanceof DomainError ? `${error.kind}: ${error.message}` : String(error);
  }
  return 'no error';
};

describe('addresses', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'refused'],
    ['172.16.0.1', 'refused'],
    ['172.31.255.255', 'refused'],
    ['192.168.1.1', 'refused'],
    ['169.254.169.254', 'refused'],
    ['100.64.0.1', 'refused'],
    ['0.0.0.0', 'refused'],
    ['0.1.2.3', 'refused'],
    ['224.0.0.1', 'refused'],
    ['240.0.0.1', 'refused'],
    ['255.255.255.255', 'refused'],
    ['fc00::1', 'refused'],
    ['fd12:3456::1', 'refused'],
    ['fe80::1', 'refused'],
    ['::', 'refused'],
    ['::ffff:10.0.0.1', 'refused'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'refused'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'refused'],
    ['not an address', 'invalid'],
  ])('%s is %s', (address, verdict) => {
    expect(classifyAddress(address)).toBe(verdict);
  });

  it('knows an IP literal from a name, brackets and all', () => {
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(literalAddress('hooks.example.com')).toBeUndefined();
  });
});

describe('webhook URLs', () => {
  it('takes https and refuses http, credentials and private or loopback literals on AWS', () => {
    expect(checkWebhookUrl('https://hooks.example.com/in', false)).toBe('https://hooks.example.com/in');
    const refused = (url: string) => {
      try {
        checkWebhookUrl(url, false);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused('http://hooks.example.com/in')).toBe(developerMessages.webhookUrlInvalid);
    expect(refused('ftp://hooks.example.com/')).toBe(developerMessages.webhookUrlInvalid);
    expect(refused('not a url')).toBe(developerMessages.webhookUrlInvalid);
    expect(refused('https://user:pw@hooks.example.com/')).toBe(developerMessages.webhookUrlCredentials);
    expect(refused('https://127.0.0.1/in')).toBe(developerMessages.webhookUrlPrivate);
    expect(refused('https://169.254.169.254/latest/meta-data')).toBe(developerMessages.webhookUrlPrivate);
    expect(refused('https://[::ffff:10.0.0.1]/')).toBe(developerMessages.webhookUrlPrivate);
    // The URL parser turns these spellings into 127.0.0.1 and 10.0.0.1 first.
    expect(refused('https://2130706433/')).toBe(developerMessages.webhookUrlPrivate);
    expect(refused('https://0x0a.0.0.1/')).toBe(developerMessages.webhookUrlPrivate);
  });

  it('takes http and loopback where the local cloud allows them, never a private address', () => {
    expect(checkWebhookUrl('http://127.0.0.1:9999/in', true)).toBe('http://127.0.0.1:9999/in');
    expect(() => checkWebhookUrl('http://10.0.0.1/in', true)).toThrow(developerMessages.webhookUrlPrivate);
    expect(() => checkWebhookUrl('ftp://127.0.0.1/', true)).toThrow(developerMessages.webhookUrlLocalOnly);
  });
});

describe('endpoints', () => {
  it('creates with a whsec_ secret shown once, lists without it, and deletes', async () => {
    const h = memoryWebhookDeps();
    const created = await create(h);
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(created).toMatchObject({ url: 'https://hooks.example.com/in', events: ['track.completed'] });
    const listed = await listWebhookEndpoints(h.deps, 'u1');
    expect(listed).toEqual([
      { id: created.id, url: created.url, events: created.events, createdAt: created.createdAt },
    ]);
    expect(await listWebhookEndpoints(h.deps, 'u2')).toEqual([]);
    await deleteWebhookEndpoint(h.deps, 'u1', created.id);
    expect(await listWebhookEndpoints(h.deps, 'u1')).toEqual([]);
  });

  it('refuses a sixth endpoint with the message', async () => {
    const h = memoryWebhookDeps();
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) await create(h);
    expect(await messageOf(() => create(h))).toBe(`conflict: ${developerMessages.tooManyWebhooks}`);
    expect(await listWebhookEndpoints(h.deps, 'u1')).toHaveLength(WEBHOOK_ENDPOINTS_MAX);
  });

  it("answers not found for another user's endpoint, and leaves it alone", async () => {
    const h = memoryWebhookDeps();
    const theirs = await create(h, 'u2');
    const notFound = `not-found: ${developerMessages.webhookNotFound}`;
    expect(await messageOf(() => deleteWebhookEndpoint(h.deps, 'u1', theirs.id))).toBe(notFound);
    expect(await messageOf(() => listWebhookDeliveries(h.deps, 'u1', theirs.id))).toBe(notFound);
    expect(await messageOf(() => sendWebhookTestEvent(h.deps, 'u1', theirs.id))).toBe(notFound);
    expect(await listWebhookEndpoints(h.deps, 'u2')).toHaveLength(1);
    expect(h.sender.sent).toEqual([]);
  });

  it("deleting an account's webhooks removes its endpoints and deliveries only", async () => {
    const h = memoryWebhookDeps();
    await create(h, 'u1');
    await create(h, 'u2');
    await raiseTrackEvent(h.deps, 'track.completed', aGeneration({ userId: 'u1', status: 'completed' }));
    await raiseTrackEvent(h.deps, 'track.completed', aGeneration({ userId: 'u2', status: 'completed' }));
    expect(await deleteUserWebhooks(h.deps, 'u1')).toBe(1);
    expect([...h.endpoints.all.values()].map((e) => e.userId)).toEqual(['u2']);
    expect([...h.deliveries.all.values()].map((d) => d.userId)).toEqual(['u2']);
  });
});

describe('events and deliveries', () => {
  it('raises one delivery per subscribed endpoint with the v1 track, and starts the job', async () => {
    const h = memoryWebhookDeps();
    const completed = await create(h, 'u1', ['track.completed']);
    await create(h, 'u1', ['track.failed']);
    await create(h, 'u2', ['track.completed']);
    const track = aGeneration({ userId: 'u1', status: 'completed', title: 'Night drive' });
    const ids = await raiseTrackEvent(h.deps, 'track.completed', track);
    expect(ids).toHaveLength(1);
    expect(h.started).toEqual([ids]);
    const delivery = h.deliveries.all.get(ids[0] as string) as WebhookDelivery;
    expect(delivery).toMatchObject({ endpointId: completed.id, event: 'track.completed', status: 'pending' });
    const payload = webhookPayloadSchema.parse(JSON.parse(delivery.body));
    expect(payload.id).toMatch(/^evt_/);
    expect(payload.type).toBe('track.completed');
    const v1 = v1TrackSchema.parse(payload.data.track);
    expect(v1).toMatchObject({ id: track.id, status: 'completed', title: 'Night drive', error: null });
    expect(v1.provenanceUrl).toBe(`https://tunesmith.example/api/track/${track.id}/provenance`);
  });

  it('raises nothing, and starts nothing, for a user with no subscribed endpoint', async () => {
    const h = memoryWebhookDeps();
    await create(h, 'u1', ['track.failed']);
    expect(await raiseTrackEvent(h.deps, 'track.completed', aGeneration({ userId: 'u1' }))).toEqual([]);
    expect(h.started).toEqual([]);
  });

  it('keeps the deliveries for the schedule when the job cannot start', async () => {
    const h = memoryWebhookDeps();
    h.deps.dispatch = {
      start: async () => {
        throw new Error('Lambda is down');
      },
    };
    await create(h);
    const warnings: string[] = [];
    const ids = await raiseTrackEvent(h.deps, 'track.completed', aGeneration({ userId: 'u1' }), {
      warn: (message) => warnings.push(message),
    });
    expect(ids).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect((await h.deliveries.due(h.deps.clock.now().toISOString(), 10)).map((d) => d.id)).toEqual(ids);
  });

  it('signs each try so the receiver verifies it, and logs a 2xx as delivered', async () => {
    const h = memoryWebhookDeps();
    const endpoint = await create(h);
    const [id] = await raiseTrackEvent(h.deps, 'track.completed', aGeneration({ userId: 'u1' }));
    expect(await deliverWebhooks(h.deps, [id as string])).toEqual({ tried: 1, delivered: 1 });
    const [sent] = h.sender.sent;
    expect(sent?.url).toBe(endpoint.url);
    const header = sent?.headers['Tunesmith-Signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(endpoint.secret, header, sent?.body as string, h.deps.clock.now())).toBe(
      true,
    );
    expect(verifyWebhookSignature('whsec_other', header, sent?.body as string, h.deps.clock.now())).toBe(
      false,
    );
    expect(Object.keys(sent?.headers ?? {}).map((k) => k.toLowerCase())).not.toContain('cookie');
    const [logged] = await listWebhookDeliveries(h.deps, 'u1', endpoint.id);
    expect(logged).toMatchObject({
      status: 'delivered',
      attempts: 1,
      responseStatus: 200,
      nextAttemptAt: null,
    });
  });

  it('retries a failed try after its pause, once, and logs each', async () => {
    const h = memoryWebhookDeps();
    h.sender.send = (() => {
      const answers = [500, 200];
      return async (url: string, body: string, headers: Record<string, string>) => {
        h.sender.sent.push({ url, body, headers });
        return { status: answers[h.sender.sent.length - 1] ?? 200, error: null };
      };
    })();
    const endpoint = await create(h);
    const [id] = await raiseTrackEvent(h.deps, 'track.completed', aGeneration({ userId: 'u1' }));
    await deliverWebhooks(h.deps, [id as string]);
    let [logged] = await listWebhookDeliveries(h.deps, 'u1', endpoint.id);
    expect(logged).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseStatus: 500,
      error: 'The endpoint answered 500',
      nextAttemptAt: new Date(h.deps.clock.now().getTime() + 60_000).toISOString(),
    });
    // Not due yet: the schedule sends nothing.
    expect(await deliverWebhooks(h.deps)).toEqual({ tried: 0, delivered: 0 });
    h.advance(60);
    // Two senders race for the due try (the schedule and a started job): one try.
    const [a, b] = await Promise.all([deliverWebhooks(h.deps), attemptDelivery(h.deps, id as string)]);
    expect(a.tried + (b ? 1 : 0)).toBe(1);
    expect(h.sender.sent).toHaveLength(2);
    [logged] = await listWebhookDeliveries(h.deps, 'u1', endpoint.id);
    expect(logged).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 200, error: null });
  });

  it('fails a delivery after its last retry, within the day', () => {
    const now = new Date('2026-11-29T12:00:00.000Z');
    let delivery: WebhookDelivery = {
      id: 'whd_1',
      endpointId: 'we_1',
      userId: 'u1',
      event: 'track.completed',
      eventId: 'evt_1',
      body: '{}',
      status: 'pending',
      attempts: 0,
      responseStatus: null,
      error: null,
      nextAttemptAt: now.toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    let at = now;
    for (const pause of WEBHOOK_RETRY_DELAYS_SECONDS) {
      delivery = afterTry(delivery, { status: null, error: 'Connection refused' }, at);
      expect(delivery.status).toBe('pending');
      expect(Date.parse(delivery.nextAttemptAt as string) - at.getTime()).toBe(pause * 1000);
      at = new Date(delivery.nextAttemptAt as string);
    }
    expect(at.getTime() - now.getTime()).toBeLessThan(24 * 3600 * 1000);
    delivery = afterTry(delivery, { status: null, error: 'Connection refused' }, at);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 7,
      error: 'Connection refused',
      nextAttemptAt: null,
    });
  });

  it('fails, without a try, a delivery whose endpoint was deleted', async () => {
    const h = memoryWebhookDeps();
    const endpoint = await create(h);
    const [id] = await raiseTrackEvent(h.deps, 'track.completed', aGeneration({ userId: 'u1' }));
    await h.endpoints.delete('u1', endpoint.id);
    const done = await attemptDelivery(h.deps, id as string);
    expect(done).toMatchObject({ status: 'failed', error: 'The endpoint was deleted' });
    expect(h.sender.sent).toEqual([]);
  });

  it('sends a test event at once and logs it; a refused test is failed, not retried', async () => {
    const h = memoryWebhookDeps();
    const endpoint = await create(h);
    // While its try is under way, the schedule finds nothing due.
    h.sender.send = async (url, body, headers) => {
      h.sender.sent.push({ url, body, headers });
      expect(await h.deliveries.due(h.deps.clock.now().toISOString(), 10)).toEqual([]);
      return { status: 200, error: null };
    };
    const delivered = await sendWebhookTestEvent(h.deps, 'u1', endpoint.id);
    expect(delivered).toMatchObject({ event: 'webhook.test', status: 'delivered', responseStatus: 200 });
    expect(JSON.parse(h.sender.sent[0]?.body as string)).toMatchObject({ type: 'webhook.test' });
    h.sender.send = async () => ({ status: null, error: 'The address 10.0.0.1 is not allowed' });
    const refused = await sendWebhookTestEvent(h.deps, 'u1', endpoint.id);
    expect(refused).toMatchObject({
      status: 'failed',
      error: 'The address 10.0.0.1 is not allowed',
      nextAttemptAt: null,
    });
  });

  it('reads the ids of a job event and nothing else', () => {
    expect(deliveryIdsOf({ kind: 'webhook-deliveries', deliveryIds: ['whd_abc', '../x', 3] })).toEqual([
      'whd_abc',
    ]);
    expect(deliveryIdsOf({ source: 'aws.events' })).toBeUndefined();
  });
});

describe('signatures', () => {
  const body = '{"id":"evt_1"}';
  const now = new Date('2026-11-29T12:00:00.000Z');
  const t = Math.floor(now.getTime() / 1000);

  it('verifies within the tolerance and refuses a replay after it', () => {
    const header = signWebhook('whsec_s', body, t);
    expect(verifyWebhookSignature('whsec_s', header, body, now)).toBe(true);
    const late = new Date(now.getTime() + (WEBHOOK_TOLERANCE_SECONDS + 1) * 1000);
    expect(verifyWebhookSignature('whsec_s', header, body, late)).toBe(false);
    expect(verifyWebhookSignature('whsec_s', header, body, late, WEBHOOK_TOLERANCE_SECONDS + 5)).toBe(true);
  });

  it('refuses a changed body, a changed time, and headers that are not signatures', () => {
    const header = signWebhook('whsec_s', body, t);
    expect(verifyWebhookSignature('whsec_s', header, `${body} `, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_s', header.replace(`t=${t}`, `t=${t + 1}`), body, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_s', null, body, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_s', `t=${t}`, body, now)).toBe(false);
    expect(verifyWebhookSignature('whsec_s', `t=${t},v1=zz`, body, now)).toBe(false);
  });

  it('takes any one of several v1 signatures', () => {
    const good = signWebhook('whsec_s', body, t).split(',')[1];
    expect(verifyWebhookSignature('whsec_s', `t=${t},v1=${'0'.repeat(64)},${good}`, body, now)).toBe(true);
  });
});
