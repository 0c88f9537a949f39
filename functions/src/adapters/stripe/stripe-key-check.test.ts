import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeKeyCheck } from './stripe-key-check';

const GOOD = 'sk_test_good';
const RESTRICTED = 'rk_test_nobalance';
let server: Server;
let apiBase: string;
const asked: { method?: string; url?: string }[] = [];

/** Answers the balance read as Stripe does: 200 for its key, 403 for a restricted one, 401 otherwise. */
beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push({ method: req.method, url: req.url });
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (key === GOOD) answer(200, { object: 'balance', available: [], pending: [], livemode: false });
    else if (key === RESTRICTED)
      answer(403, {
        error: { type: 'invalid_request_error', message: 'The provided key does not have access' },
      });
    else answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('stripeKeyCheck', () => {
  it('reads the balance with the key: Stripe taking it is ok, refusing it is refused', async () => {
    const check = stripeKeyCheck({ apiBase });
    expect(await check.checkSecretKey(GOOD)).toBe('ok');
    expect(asked.at(-1)).toEqual({ method: 'GET', url: '/v1/balance' });
    expect(await check.checkSecretKey('sk_test_madeup')).toBe('refused');
  });

  it('takes a restricted key that Stripe knows but that may not read the balance', async () => {
    expect(await stripeKeyCheck({ apiBase }).checkSecretKey(RESTRICTED)).toBe('ok');
  });

  it('says unreachable when Stripe cannot be asked', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const check = stripeKeyCheck({ apiBase: `http://127.0.0.1:${port}`, timeoutMs: 2000 });
    expect(await check.checkSecretKey(GOOD)).toBe('unreachable');
  });
});
