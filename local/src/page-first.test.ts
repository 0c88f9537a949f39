import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Route } from './front-door';
import { needsTheCloud, pageFirst } from './page-first';

// While the local cloud starts: the page answers at once, and what needs the
// emulators waits for them instead of failing.

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
  );
});

async function serve(route: Route): Promise<string> {
  const server = http.createServer(route);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const answer = (body: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.end(body);
  return Promise.resolve();
};

function opening() {
  let open: (route: Route) => void = () => {};
  const promise = new Promise<Route>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('needsTheCloud', () => {
  it('takes the API, the developer pages, the audio areas and track pages', () => {
    for (const target of [
      '/api',
      '/api/plans',
      '/api?x',
      '/_dev/mail',
      '/tracks/a.wav',
      '/exports/z.zip',
      '/track/1',
    ])
      expect(needsTheCloud(target)).toBe(true);
  });

  it('leaves the SPA and its files to the page', () => {
    for (const target of ['/', '/pricing', '/assets/index.js', '/apiary', '/library', '/trackless'])
      expect(needsTheCloud(target)).toBe(false);
  });
});

describe('pageFirst', () => {
  it('answers the page at once and holds an API request until the cloud opens, then answers it', async () => {
    const cloud = opening();
    const url = await serve(pageFirst(answer('page'), cloud.promise, () => {}));

    expect(await (await fetch(`${url}/pricing`)).text()).toBe('page');
    let apiAnswered = false;
    const api = fetch(`${url}/api/plans`).then(async (res) => {
      apiAnswered = true;
      return { status: res.status, body: await res.text() };
    });
    // The page still answers while the API request waits.
    expect(await (await fetch(`${url}/`)).text()).toBe('page');
    expect(apiAnswered).toBe(false);

    cloud.open((req, res) => {
      res.writeHead(200);
      res.end(`cloud ${req.url}`);
    });
    expect(await api).toEqual({ status: 200, body: 'cloud /api/plans' });
  });

  it('sends every request to the full routing once it is open', async () => {
    const cloud = opening();
    const url = await serve(pageFirst(answer('page'), cloud.promise, () => {}));
    cloud.open((req, res) => res.end(`cloud ${req.url}`));
    await cloud.promise;

    expect(await (await fetch(`${url}/`)).text()).toBe('cloud /');
    expect(await (await fetch(`${url}/api/plans`)).text()).toBe('cloud /api/plans');
  });

  it('reports a page that fails', async () => {
    const failures: unknown[] = [];
    const url = await serve(
      pageFirst(
        () => Promise.reject(new Error('file vanished')),
        opening().promise,
        (res, error) => {
          failures.push(error);
          res.writeHead(500);
          res.end();
        },
      ),
    );

    expect((await fetch(`${url}/`)).status).toBe(500);
    expect(failures).toEqual([new Error('file vanished')]);
  });
});
