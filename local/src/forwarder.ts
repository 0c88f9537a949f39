import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Forwarder {
  /** Its own URL: what its clients are given in place of the upstream's. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * An HTTP endpoint on 127.0.0.1 for a service that starts after its clients are given its
 * address: every request is sent on to the URL `upstream` resolves to, as it came (method,
 * path, headers and body), and answered with what that answers. A request that arrives
 * before `upstream` resolves waits for it rather than being refused; one that cannot reach
 * it (it failed to start, or stopped) is answered 502 with why.
 */
export async function startForwarder(options: {
  /** 0 for a free one. */
  port: number;
  upstream: Promise<string>;
  /** The service's name, in the 502's message. */
  name: string;
}): Promise<Forwarder> {
  const { name } = options;
  // Handled here: a failed start is reported where it is awaited, and per request below.
  options.upstream.catch(() => {});
  const server = http.createServer((req, res) => {
    const fail = (why: string) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ message: `${name} ${why}` }));
    };
    options.upstream.then(
      (base) => {
        const target = new URL(base);
        // To the upstream's host and port whatever the request names (an absolute-form target
        // included): the path and query are all that is taken from it.
        const outgoing = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (incoming) => {
            res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, incoming.headers);
            incoming.pipe(res);
          },
        );
        outgoing.on('error', (error) => fail(`did not answer: ${error.message}`));
        // A client that goes away before its answer takes its forwarded request with it.
        res.on('close', () => {
          if (!res.writableFinished) outgoing.destroy();
        });
        req.pipe(outgoing);
      },
      (error: unknown) => fail(`did not start: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
