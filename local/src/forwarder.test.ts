import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Forwarder, startForwarder } from './forwarder';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** An upstream that answers with what it was sent. */
async function echoServer(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(JSON.stringify({ method: req.method, url: req.url, body, header: req.headers['x-test'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

async function forwarder(upstream: Promise<string>): Promise<Forwarder> {
  const started = await startForwarder({ port: 0, upstream, name: 'The service' });
  closers.push(() => started.close());
  return started;
}

describe('startForwarder', () => {
  it('holds a request that comes before its upstream is known, then forwards it whole', async () => {
    const echo = await echoServer();
    let known: (url: string) => void = () => {};
    const proxy = await forwarder(new Promise<string>((resolve) => (known = resolve)));

    const answer = fetch(`${proxy.url}/v2/email?x=1`, {
      method: 'POST',
      headers: { 'x-test': 'kept' },
      body: 'the body',
    });
    // Still waiting: the upstream has not been named, and nothing reached it.
    const early = await Promise.race([answer.then(() => 'answered'), delay(100).then(() => 'waiting')]);
    expect(early).toBe('waiting');
    expect(echo.requests).toEqual([]);
    known(echo.url);
    const response = await answer;

    expect(response.status).toBe(201);
    expect(response.headers.get('x-upstream')).toBe('yes');
    expect(await response.json()).toEqual({
      method: 'POST',
      url: '/v2/email?x=1',
      body: 'the body',
      header: 'kept',
    });
  });

  it('answers one request after another on the same connections', async () => {
    const echo = await echoServer();
    const proxy = await forwarder(Promise.resolve(echo.url));

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${proxy.url}/store?n=${i}`);
      await response.arrayBuffer();
      statuses.push(response.status);
    }

    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    expect(echo.requests).toEqual([0, 1, 2, 3, 4].map((i) => `GET /store?n=${i}`));
  });

  it('sends an absolute-form request to its upstream, not to the host it names', async () => {
    const echo = await echoServer();
    const elsewhere = await echoServer();
    const proxy = await forwarder(Promise.resolve(echo.url));
    const { port } = new URL(proxy.url);

    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .request({ host: '127.0.0.1', port, path: `${elsewhere.url}/store`, method: 'GET' }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on('error', reject)
        .end();
    });

    expect(status).toBe(201);
    expect(echo.requests).toEqual([`GET ${elsewhere.url}/store`]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('answers 502 with why when its upstream did not start or does not answer', async () => {
    const failed = await forwarder(Promise.reject(new Error('port 1 is in use')));
    const gone = await forwarder(Promise.resolve('http://127.0.0.1:1'));

    const notStarted = await fetch(`${failed.url}/health-check`);
    const notAnswering = await fetch(`${gone.url}/health-check`);

    expect(notStarted.status).toBe(502);
    expect(await notStarted.json()).toEqual({ message: 'The service did not start: port 1 is in use' });
    expect(notAnswering.status).toBe(502);
    expect((await notAnswering.json()).message).toMatch(/^The service did not answer: .*ECONNREFUSED/);
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
