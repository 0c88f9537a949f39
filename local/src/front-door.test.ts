import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  answerClientError,
  createFrontDoor,
  type FrontDoor,
  frontDoorMessages,
  isCrossSite,
  isOwnHost,
} from './front-door';

describe('isOwnHost', () => {
  it('takes the loopback names with the server port', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', 'LocalHost:3000', '[::1]:3000']) {
      expect(isOwnHost(host, 3000)).toBe(true);
    }
  });

  it('refuses other names, other ports and odd shapes', () => {
    for (const host of [
      undefined,
      '',
      'evil.example:3000',
      '127.0.0.1.nip.io:3000',
      'localhost.evil.example:3000',
      '127.0.0.1:3001',
      '127.0.0.1',
      'localhost:3000:3000',
      'user@localhost:3000',
      '[::2]:3000',
      '0.0.0.0:3000',
    ]) {
      expect(isOwnHost(host, 3000)).toBe(false);
    }
  });

  it('takes a name without a port when the server is on port 80, as browsers send it', () => {
    expect(isOwnHost('localhost', 80)).toBe(true);
    expect(isOwnHost('localhost', 3000)).toBe(false);
  });
});

describe('isCrossSite', () => {
  it('lets through tools (no Origin), the app itself and the address bar', () => {
    expect(isCrossSite({}, 3000)).toBe(false);
    expect(isCrossSite({ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }, 3000)).toBe(
      false,
    );
    expect(isCrossSite({ origin: 'http://localhost:3000' }, 3000)).toBe(false);
    expect(isCrossSite({ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }, 3000)).toBe(false);
  });

  it('refuses another origin, an opaque one and what the browser says is another site', () => {
    expect(isCrossSite({ origin: 'https://evil.example' }, 3000)).toBe(true);
    expect(isCrossSite({ origin: 'null' }, 3000)).toBe(true);
    expect(isCrossSite({ origin: 'http://127.0.0.1:5173' }, 3000)).toBe(true);
    expect(isCrossSite({ origin: 'https://127.0.0.1:3000' }, 3000)).toBe(true);
    expect(isCrossSite({ 'sec-fetch-site': 'cross-site' }, 3000)).toBe(true);
    // Another port of the same host: same site, another origin.
    expect(isCrossSite({ 'sec-fetch-site': 'same-site' }, 3000)).toBe(true);
  });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let port: number;
let door: FrontDoor;
let routed: string[];

/** What the app's routes answer once open: a bare 200 without any header of their own. */
const route = (req: http.IncomingMessage, res: http.ServerResponse) => {
  routed.push(req.url ?? '');
  if (req.url === '/crash') {
    res.writeHead(500);
    res.end('crashed');
    return;
  }
  res.writeHead(200);
  res.end('app');
};

function call(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

beforeEach(() => {
  routed = [];
  server.removeAllListeners('request');
  server.removeAllListeners('clientError');
  door = createFrontDoor({ port: () => port });
  server.on('request', door.listener);
  server.on('clientError', answerClientError);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the front door while the cloud starts', () => {
  it('answers API calls 503 with a JSON message and Retry-After', async () => {
    const answer = await call('/api/plans');

    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({ message: frontDoorMessages.starting });
    expect(routed).toEqual([]);
  });

  it("shows a browser's page load a page that says the app is starting and reloads itself", async () => {
    const answer = await call('/library', {
      accept: 'text/html,application/xhtml+xml',
      'sec-fetch-site': 'none',
    });

    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(answer.body).toContain('<h1>Tunesmith is starting…</h1>');
    expect(answer.body).toContain('<meta http-equiv="refresh" content="1">');
  });

  it('answers the mailbox in JSON, even to a browser, and HEAD without a body', async () => {
    const mailbox = await call('/_dev/mail', { accept: 'text/html' });
    expect(mailbox.status).toBe(503);
    expect(JSON.parse(mailbox.body)).toEqual({ message: frontDoorMessages.starting });

    const head = await call('/api/plans', {}, 'HEAD');
    expect(head.status).toBe(503);
    expect(head.body).toBe('');
  });
});

describe('the front door once open', () => {
  it('hands requests to the app, whose answers carry nosniff, errors included', async () => {
    door.open(route);

    const ok = await call('/api/plans');
    const crash = await call('/crash');

    expect(ok).toMatchObject({ status: 200, body: 'app' });
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(crash.status).toBe(500);
    expect(crash.headers['x-content-type-options']).toBe('nosniff');
    expect(routed).toEqual(['/api/plans', '/crash']);
  });

  it('refuses a Host that is not its own, on every path, before and after it opens', async () => {
    const before = await call('/api/plans', { host: `evil.example:${port}` });
    door.open(route);
    const rebound = await call('/', { host: `evil.example:${port}` });
    const otherPort = await call('/_dev/mail', { host: `127.0.0.1:${port + 1}` });

    for (const answer of [before, rebound, otherPort]) {
      expect(answer.status).toBe(403);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body)).toEqual({ message: frontDoorMessages.foreignHost(port) });
    }
    expect(routed).toEqual([]);
  });

  it('takes the app at localhost and at [::1] as well', async () => {
    door.open(route);

    expect((await call('/', { host: `localhost:${port}` })).status).toBe(200);
    expect((await call('/', { host: `[::1]:${port}` })).status).toBe(200);
  });

  it('keeps other sites out of /_dev and lets the app, tools and the address bar in', async () => {
    door.open(route);

    const refused = [
      await call('/_dev/stripe/advance', { origin: 'https://evil.example' }, 'POST'),
      await call('/_dev/mail', { 'sec-fetch-site': 'cross-site' }),
      await call('/_dev/mail?to=a', { 'sec-fetch-site': 'same-site' }),
      await call('/_dev', { origin: 'null' }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(JSON.parse(answer.body)).toEqual({ message: frontDoorMessages.crossSite });
    }
    expect(routed).toEqual([]);

    await call('/_dev/mail', { accept: 'application/json' });
    await call('/_dev/mail', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' });
    await call(
      '/_dev/stripe/advance',
      { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
      'POST',
    );
    expect(routed).toEqual(['/_dev/mail', '/_dev/mail', '/_dev/stripe/advance']);
  });

  it('leaves the rest of the app to its own checks for other sites (the API checks Origin itself)', async () => {
    door.open(route);

    const answer = await call('/api/plans', { 'sec-fetch-site': 'cross-site' });

    expect(answer.status).toBe(200);
  });
});

describe('answerClientError', () => {
  it('answers a request it cannot parse 400 with nosniff and closes the connection', async () => {
    const text = await raw('NOT HTTP AT ALL\r\n\r\n');

    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(text).toContain('connection: close');
    expect(text.endsWith('{"message":"Bad Request"}')).toBe(true);
  });

  it('answers headers that are too large 431', async () => {
    const text = await raw(`GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);

    expect(text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
  });
});
