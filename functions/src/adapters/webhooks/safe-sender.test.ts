import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ResolveAll, safeWebhookSender, WEBHOOK_MAX_RESPONSE_BYTES } from './safe-sender';

interface Received {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const servers: http.Server[] = [];

/** A receiver on 127.0.0.1 that records requests and connections, answering with `answer`. */
async function receiver(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_, res) => res.end('ok'),
) {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      answer(req, res);
    });
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, received, connections: () => connections };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

const headers = { 'content-type': 'application/json', 'Tunesmith-Signature': 't=1,v1=ab' };
const at =
  (address: string): ResolveAll =>
  async () => [{ address, family: address.includes(':') ? 6 : 4 }];

describe('the webhook sender', () => {
  it('posts the body and the given headers only, where the local setting allows loopback and http', async () => {
    const r = await receiver();
    const sender = safeWebhookSender({ allowLoopback: true });
    const outcome = await sender.send(`http://127.0.0.1:${r.port}/in?x=1`, '{"a":1}', headers);
    expect(outcome).toEqual({ status: 200, error: null });
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    expect(got).toMatchObject({ method: 'POST', url: '/in?x=1', body: '{"a":1}' });
    expect(got?.headers['tunesmith-signature']).toBe('t=1,v1=ab');
    expect(got?.headers.cookie).toBeUndefined();
    expect(got?.headers.authorization).toBeUndefined();
  });

  it('refuses http when the setting is off', async () => {
    const r = await receiver();
    const outcome = await safeWebhookSender({ allowLoopback: false }).send(
      `http://hooks.example.com:${r.port}/`,
      '{}',
      headers,
    );
    expect(outcome).toEqual({ status: null, error: 'Webhooks are sent to https:// URLs only' });
  });

  it('refuses a loopback address, literal or by name, without connecting, when the setting is off', async () => {
    const r = await receiver();
    const sender = safeWebhookSender({ allowLoopback: false });
    const literal = await sender.send(`https://127.0.0.1:${r.port}/`, '{}', headers);
    expect(literal.status).toBeNull();
    expect(literal.error).toContain('127.0.0.1 is a loopback address');
    const named = await sender.send(`https://localhost:${r.port}/`, '{}', headers);
    expect(named.status).toBeNull();
    expect(named.error).toMatch(/(127\.0\.0\.1|::1) is a loopback address/);
    const mapped = await sender.send(`https://[::ffff:127.0.0.1]:${r.port}/`, '{}', headers);
    expect(mapped.error).toContain('is a loopback address');
    expect(r.connections()).toBe(0);
  });

  it.each(['10.0.0.5', '169.254.169.254', '100.64.1.1', 'fd00::1', 'fe80::1', '::ffff:192.168.0.1'])(
    'refuses a name that resolves to %s',
    async (address) => {
      const sender = safeWebhookSender({ allowLoopback: true, resolve: at(address) });
      const outcome = await sender.send('https://hooks.example.test/', '{}', headers);
      expect(outcome.status).toBeNull();
      expect(outcome.error).toContain(`${address} is private, local or reserved`);
    },
  );

  it('refuses a name when any of its addresses is private', async () => {
    const sender = safeWebhookSender({
      allowLoopback: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    });
    expect((await sender.send('https://hooks.example.test/', '{}', headers)).error).toContain('10.0.0.1');
  });

  it('checks the address at connect time, so a name that rebinds to a private one is refused', async () => {
    const r = await receiver();
    // The first resolution (as any earlier check would see it) is public; the one the connection makes is loopback.
    let calls = 0;
    const rebinding: ResolveAll = async () => [
      { address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 },
    ];
    expect(await rebinding('hooks.example.test')).toEqual([{ address: '93.184.216.34', family: 4 }]);
    const refused = await safeWebhookSender({ allowLoopback: false, resolve: rebinding }).send(
      `https://hooks.example.test:${r.port}/`,
      '{}',
      headers,
    );
    expect(refused.error).toContain('127.0.0.1 is a loopback address');
    expect(r.connections()).toBe(0);
    // The same resolution is what the connection uses: allowed, it reaches the receiver.
    const allowed = await safeWebhookSender({ allowLoopback: true, resolve: rebinding }).send(
      `http://hooks.example.test:${r.port}/`,
      '{}',
      headers,
    );
    expect(allowed).toEqual({ status: 200, error: null });
    expect(r.received[0]?.headers.host).toBe(`hooks.example.test:${r.port}`);
  });

  it('does not follow a redirect (to the metadata address): a 3xx is a failed try', async () => {
    const r = await receiver((_, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    const outcome = await safeWebhookSender({ allowLoopback: true }).send(
      `http://127.0.0.1:${r.port}/`,
      '{}',
      headers,
    );
    expect(outcome).toEqual({
      status: 302,
      error: 'The endpoint answered 302, a redirect, which is not followed',
    });
    expect(r.received).toHaveLength(1);
  });

  it('ends a try that gets no answer in time', async () => {
    const r = await receiver(() => {
      // Never answers.
    });
    const outcome = await safeWebhookSender({ allowLoopback: true, timeoutMs: 200 }).send(
      `http://127.0.0.1:${r.port}/`,
      '{}',
      headers,
    );
    expect(outcome).toEqual({ status: null, error: 'No answer within 0.2 s' });
  });

  it('fails a try whose answer begins but does not end in time', async () => {
    const r = await receiver((_, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const outcome = await safeWebhookSender({ allowLoopback: true, timeoutMs: 200 }).send(
      `http://127.0.0.1:${r.port}/`,
      '{}',
      headers,
    );
    expect(outcome).toEqual({ status: 200, error: 'The answer did not end within 0.2 s' });
  });

  it('reads no more than 64 KB of an answer that never ends', async () => {
    let closed = false;
    const r = await receiver((_, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 97);
      const pump = () => {
        while (!closed && res.write(chunk));
        if (!closed) res.once('drain', pump);
      };
      res.on('close', () => {
        closed = true;
      });
      pump();
    });
    // With an hour to run, only the cut at 64 KB ends this try.
    const outcome = await safeWebhookSender({ allowLoopback: true, timeoutMs: 3_600_000 }).send(
      `http://127.0.0.1:${r.port}/`,
      '{}',
      headers,
    );
    expect(outcome).toEqual({ status: 200, error: null });
    expect(WEBHOOK_MAX_RESPONSE_BYTES).toBe(65_536);
  });
});
