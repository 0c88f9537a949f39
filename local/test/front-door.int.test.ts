import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalCloud, startLocalCloud } from '../src/cloud';
import { startLocalCloudProcess } from '../src/cloud-process';

// The local cloud's one-origin server as a browser and an attacker's page see
// it: /_dev refuses other sites and foreign Hosts (DNS rebinding) and still
// serves the address bar and the test suites; every kind of answer, errors and
// 404s included, carries X-Content-Type-Options: nosniff.

const webDir = fileURLToPath(new URL('../../web/', import.meta.url));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on its own connection, with any Host the caller names. */
function call(
  base: string,
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: target,
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Sends raw bytes; the answer's status line and headers, read until the server closes. */
function raw(base: string, bytes: string): Promise<{ status: number; head: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => {
      const head = text.split('\r\n\r\n', 1)[0] ?? '';
      resolve({ status: Number(head.split(' ')[1]), head: head.toLowerCase() });
    });
    socket.on('error', reject);
  });
}

const isLocal = inject('isLocal');

describe.skipIf(!isLocal)('/_dev on the local cloud', () => {
  const apiUrl = inject('apiUrl');
  const port = new URL(apiUrl).port;

  it('refuses a Host that is not its own, as a page whose name was rebound to 127.0.0.1 would send', async () => {
    for (const target of ['/_dev/mail', '/_dev/stripe/advance', '/api/plans']) {
      const answer = await call(apiUrl, target, {
        headers: { host: `rebound.example:${port}`, accept: 'application/json' },
      });

      expect(answer.status).toBe(403);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body).message).toMatch(/answers only at its own address/);
    }
  });

  it('refuses another site: its Origin, or the browser saying cross-site or same-site', async () => {
    const refused = [
      // A page elsewhere moving the billing clock on.
      await call(apiUrl, '/_dev/stripe/advance', {
        method: 'POST',
        headers: { origin: 'https://elsewhere.example', 'content-type': 'application/json' },
        body: JSON.stringify({ days: 0 }),
      }),
      await call(apiUrl, '/_dev/mail', {
        headers: { accept: 'application/json', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
      }),
      // Another local server (another port of 127.0.0.1) is another origin of the same site.
      await call(apiUrl, '/_dev/mail', {
        headers: { accept: 'application/json', 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' },
      }),
      await call(apiUrl, '/_dev/mail', { headers: { origin: `http://127.0.0.1:${Number(port) + 1}` } }),
    ];

    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body).message).toMatch(/not to requests from other sites/);
    }
  });

  it('serves the test suites (no Origin, own Host), the app itself and the address bar', async () => {
    const tool = await call(apiUrl, '/_dev/mail', { headers: { accept: 'application/json' } });
    const app = await call(apiUrl, '/_dev/mail', {
      headers: { accept: 'application/json', origin: apiUrl, 'sec-fetch-site': 'same-origin' },
    });
    const addressBar = await call(apiUrl, '/_dev/mail', {
      headers: {
        host: `localhost:${port}`,
        accept: 'text/html,application/xhtml+xml',
        'sec-fetch-site': 'none',
        'sec-fetch-mode': 'navigate',
      },
    });
    // Reaches the test clock, which refuses the zero days itself: the clock does not move.
    const clock = await call(apiUrl, '/_dev/stripe/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ days: 0 }),
    });

    expect(tool.status).toBe(200);
    expect(JSON.parse(tool.body)).toEqual({ emails: expect.any(Array) });
    expect(app.status).toBe(200);
    expect(addressBar.status).toBe(200);
    expect(addressBar.headers['content-type']).toMatch(/^text\/html/);
    expect(addressBar.body).toContain('<h1>Local mailbox</h1>');
    expect(clock.status).toBe(400);
    expect(JSON.parse(clock.body).message).toMatch(/Send \{"days": N\}/);
  });
});

describe.skipIf(!isLocal)('nosniff on every answer of the local cloud (API only)', () => {
  const apiUrl = inject('apiUrl');
  const host = new URL(apiUrl).host;

  it('on the API: handler answers, its 4xx, and the adapter’s own 404 and 413', async () => {
    const answers = {
      plans: await call(apiUrl, '/api/plans'),
      unauthenticated: await call(apiUrl, '/api/auth/user'),
      badInput: await call(apiUrl, '/api/auth/login', {
        method: 'POST',
        headers: { origin: apiUrl, 'content-type': 'application/json' },
        body: '{"email": 1}',
      }),
      noRoute: await call(apiUrl, '/api/no-such-route'),
    };
    const tooLarge = await raw(
      apiUrl,
      `POST /api/auth/login HTTP/1.1\r\nhost: ${host}\r\norigin: ${apiUrl}\r\ncontent-type: application/json\r\ncontent-length: 20000000\r\n\r\n{}`,
    );

    expect(Object.values(answers).map((answer) => answer.status)).toEqual([200, 401, 400, 404]);
    for (const answer of Object.values(answers))
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.head).toContain('x-content-type-options: nosniff');
  });

  it('on /tracks refusals, /_dev pages and their errors, other paths and unreadable requests', async () => {
    const answers = [
      await call(apiUrl, '/tracks/none.wav'),
      await call(apiUrl, '/tracks/none.wav?Expires=1&Signature=x&Key-Pair-Id=KNONE'),
      await call(apiUrl, '/_dev/mail'),
      await call(apiUrl, '/_dev/mail', { method: 'HEAD' }),
      await call(apiUrl, '/_dev/mail', { method: 'POST' }),
      await call(apiUrl, '/_dev/stripe/nothing'),
      await call(apiUrl, '/_dev/stripe/advance'),
      await call(apiUrl, '/_dev/nothing'),
      await call(apiUrl, '/nothing-here'),
      await call(apiUrl, '/_dev/mail', { headers: { 'sec-fetch-site': 'cross-site' } }),
      await call(apiUrl, '/', { headers: { host: 'rebound.example' } }),
    ];
    const unreadable = await raw(apiUrl, 'NOT HTTP\r\n\r\n');

    expect(answers.map((answer) => answer.status)).toEqual([
      403, 403, 200, 200, 405, 404, 405, 404, 404, 403, 403,
    ]);
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(unreadable.status).toBe(400);
    expect(unreadable.head).toContain('x-content-type-options: nosniff');
  });
});

describe('nosniff on the SPA: the built files and Vite', () => {
  let built: LocalCloud;
  let dev: LocalCloud;

  beforeAll(async () => {
    // As the browser journeys do: `npm test` builds the SPA first; a direct run builds it here.
    if (!existsSync(path.join(webDir, 'dist', 'index.html'))) await build({ root: webDir, logLevel: 'warn' });
    const options = { port: 0, dataDir: '', fresh: false, persist: false, quiet: true } as const;
    // Vite's dev server in a process of its own: one in-process cloud per process.
    [built, dev] = await Promise.all([
      startLocalCloud({ ...options, web: 'static' }),
      startLocalCloudProcess({ ...options, web: 'dev' }),
    ]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([built?.stop(), dev?.stop()]);
  });

  it('on static files, the SPA fallback and the static server’s errors', async () => {
    const index = readFileSync(path.join(webDir, 'dist', 'index.html'), 'utf8');
    const script = index.match(/<script[^>]+src="([^"]+\.js)"/)?.[1] as string;
    const answers = [
      await call(built.url, '/'),
      await call(built.url, script),
      await call(built.url, '/favicon.svg'),
      await call(built.url, '/library'),
      await call(built.url, '/missing.png'),
      await call(built.url, '/', { method: 'POST' }),
      await call(built.url, '/favicon.svg', { headers: { range: 'bytes=999999-' } }),
    ];

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 404, 405, 416]);
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it("on Vite's dev answers: the page, client routes, public files and what it does not have", async () => {
    const answers = [
      await call(dev.url, '/', { headers: { accept: 'text/html' } }),
      await call(dev.url, '/library', { headers: { accept: 'text/html' } }),
      await call(dev.url, '/favicon.svg'),
      // The app's entry, transformed (Vite's own transforms of the page's imports wait until the API has answered).
      await call(dev.url, '/src/main.tsx', { headers: { accept: 'text/javascript' } }),
      await call(dev.url, '/missing.js', { headers: { accept: 'text/javascript' } }),
      // Outside what Vite serves: refused by Vite itself.
      await call(dev.url, '/@fs/etc/passwd', { headers: { accept: 'text/javascript' } }),
    ];

    // Vite takes its own HMR socket only; any other upgrade is answered, not left open.
    const upgrade = await raw(
      dev.url,
      `GET /api/plans HTTP/1.1\r\nhost: ${new URL(dev.url).host}\r\nconnection: Upgrade\r\nupgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 404, 403]);
    expect(answers[0]?.body).toContain('<div id="root">');
    expect(answers[3]?.headers['content-type']).toMatch(/javascript/);
    expect(answers[3]?.body).toContain('hydrateRoot');
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(upgrade.status).toBe(404);
    expect(upgrade.head).toContain('x-content-type-options: nosniff');
  });
});
