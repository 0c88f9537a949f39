import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalCloud, startLocalCloud } from '../src/cloud';

// Requests that arrive while the local cloud starts: from the moment its port
// accepts connections, each one is answered (a 503 "starting" answer until the
// cloud is ready) and none is left open.

/** Longer than any answer takes, even the first import of a route group on a busy machine. */
const LEFT_OPEN_AFTER_MS = 30_000;
const REQUESTS = 150;
const WAVE = 10;

type Outcome =
  | { kind: 'refused' }
  | { kind: 'answered'; status: number; headers: http.IncomingHttpHeaders; body: string }
  | { kind: 'left open' }
  | { kind: 'failed'; code: string };

interface Probe {
  path: string;
  headers: Record<string, string>;
}

/** A sample of every kind of request a browser and the test suites make. */
const probes: Probe[] = [
  { path: '/api/plans', headers: {} },
  { path: '/', headers: { accept: 'text/html', 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' } },
  { path: '/_dev/mail', headers: { accept: 'application/json' } },
  { path: '/tracks/none.wav', headers: {} },
  { path: '/api/no-such-route', headers: { accept: 'application/json' } },
];

/** One request on a connection of its own. */
function send(port: number, probe: Probe): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: probe.path, headers: probe.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ kind: 'answered', status: res.statusCode ?? 0, headers: res.headers, body }),
        );
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ kind: 'failed', code: error.code ?? '' }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'failed', code: error.code ?? '' },
      ),
    );
    req.setTimeout(LEFT_OPEN_AFTER_MS, () => {
      resolve({ kind: 'left open' });
      req.destroy();
    });
    req.end();
  });
}

/** Resolves once a TCP connection to `port` is accepted (and closes it). */
async function accepting(port: number, starting: Promise<unknown>): Promise<void> {
  let failed = false;
  starting.catch(() => {
    failed = true;
  });
  for (;;) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (connected) return;
    if (failed) throw new Error('The local cloud failed to start');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Whether `port` can be bound on loopback right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port below Linux's ephemeral range (32768–60999). A port the kernel
 * hands out for port 0 can be handed to another test's server (or an outgoing
 * connection) in the seconds before the cloud binds it; one below that range
 * is only taken by a server asking for it by number.
 */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    if (await bindable(port)) return port;
  }
  throw new Error('No free port between 20000 and 29999');
}

let starting: Promise<LocalCloud> | undefined;

afterAll(async () => {
  await (await starting?.catch(() => undefined))?.stop();
});

describe('the local cloud while it starts', () => {
  it('answers or refuses every request and leaves none open', { timeout: 240_000 }, async () => {
    const port = await freePort();
    starting = startLocalCloud({
      port,
      dataDir: '',
      fresh: false,
      persist: false,
      web: 'none',
      quiet: true,
    });
    let started = false;
    starting.then(
      () => {
        started = true;
      },
      () => {},
    );

    await accepting(port, starting);
    const sent: { probe: Probe; outcome: Promise<Outcome> }[] = [];
    const wave = () => {
      for (let i = 0; i < WAVE; i++) {
        const probe = probes[sent.length % probes.length] as Probe;
        sent.push({ probe, outcome: send(port, probe) });
      }
    };
    // Waves spread over the rest of the start-up, so that requests land in each of its stages;
    // the last two go out as it ends.
    while (!started && sent.length < REQUESTS - 2 * WAVE) {
      wave();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await starting;
    while (sent.length < REQUESTS) wave();
    const outcomes = await Promise.all(
      sent.map(async ({ probe, outcome }) => ({ probe, ...(await outcome) })),
    );

    expect(outcomes.filter((o) => o.kind === 'left open' || o.kind === 'failed')).toEqual([]);
    const answered = outcomes.flatMap((o) => (o.kind === 'answered' ? [o] : []));
    // The first wave went out once the port accepted a connection: the server was up to answer it.
    expect(answered.length).toBeGreaterThan(0);
    for (const answer of answered) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      if (answer.status !== 503) continue;
      // Not ready yet: a clear answer the client may retry.
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      expect(answer.headers['cache-control']).toBe('no-store');
      if (answer.probe.path === '/') {
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.body).toContain('Tunesmith is starting');
      } else {
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(answer.body)).toEqual({ message: expect.stringContaining('starting') });
      }
    }
    // Once started, the same requests reach the app.
    const afterStart = outcomes.slice(-2 * WAVE);
    expect(afterStart.filter((o) => o.kind !== 'answered' || o.status === 503)).toEqual([]);
    const plans = afterStart.filter((o) => o.probe.path === '/api/plans');
    expect(plans.length).toBeGreaterThan(0);
    for (const answer of plans) expect(answer).toMatchObject({ kind: 'answered', status: 200 });
  });
});
