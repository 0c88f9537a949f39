/**
 * The webhook sender (decision 053): posts a delivery with node:http(s) and
 * refuses every address that is not public where it matters, at connect
 * time. The request's `lookup` resolves the hostname and refuses it when any
 * address it resolves to is private, loopback, link-local (the metadata
 * service), CGNAT, reserved or an IPv6 local range; the connected socket's
 * own remote address is checked again before a byte is written, so neither
 * a second resolution (DNS rebinding) nor an IP literal gets past. Redirects
 * are not followed (a 3xx is a failed try), a try ends after 5 s, at most
 * 64 KB of the answer is read, and only the headers given are sent (no
 * cookies, never the secret). http and loopback only where the local cloud
 * allows them.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { Socket } from 'node:net';
import { classifyAddress, isAllowedAddress, literalAddress } from '../../domain/developers/addresses';
import type { SendOutcome, WebhookSender } from '../../domain/developers/webhooks';

export const WEBHOOK_TIMEOUT_MS = 5_000;
export const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'Tunesmith-Webhooks/1.0';

type LookupAddress = { address: string; family: number };
/** dns.lookup's shape with `all: true`, the one the sender calls. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export interface SafeSenderOptions {
  /** The local cloud's setting: http URLs and loopback addresses allowed. */
  allowLoopback: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** How hostnames resolve (tests); dns.lookup by default. */
  resolve?: ResolveAll;
}

const systemResolve: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

class RefusedAddress extends Error {
  override readonly name = 'RefusedAddress';
}

const refusal = (address: string) =>
  new RefusedAddress(
    classifyAddress(address) === 'loopback'
      ? `The address ${address} is a loopback address, which webhooks may not reach`
      : `The address ${address} is private, local or reserved, which webhooks may not reach`,
  );

/** `lookup` for the request: every address the name resolves to is checked, and only allowed ones are used. */
function guardedLookup(resolve: ResolveAll, allowLoopback: boolean): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) => !isAllowedAddress(a.address, allowLoopback));
        if (refused) return callback(refusal(refused.address));
        if (!addresses.length) return callback(new Error(`${hostname} has no address`));
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (!usable.length) return callback(new Error(`${hostname} has no IPv${family} address`));
        if (options.all) return callback(null, usable);
        const [first] = usable as [LookupAddress];
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error),
    );
  }) as net.LookupFunction;
}

/** Describes a failed request for the delivery log (no stack, no internals). */
function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof RefusedAddress) return error.message;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ETIMEDOUT_WEBHOOK') return `No answer within ${timeoutMs / 1000} s`;
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The host name did not resolve';
  if (code === 'ECONNRESET') return 'The connection was reset';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS failed (${code})`;
  return (error as Error)?.message || 'The request failed';
}

export function safeWebhookSender(options: SafeSenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? WEBHOOK_MAX_RESPONSE_BYTES;
  const allowLoopback = options.allowLoopback;
  const lookup = guardedLookup(options.resolve ?? systemResolve, allowLoopback);

  return {
    send(rawUrl, body, headers) {
      return new Promise<SendOutcome>((resolveOutcome) => {
        let settled = false;
        const done = (outcome: SendOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          request?.destroy();
          resolveOutcome(outcome);
        };
        const fail = (error: unknown) => done({ status: null, error: describe(error, timeoutMs) });
        let request: http.ClientRequest | undefined;
        const timer = setTimeout(() => {
          const error = Object.assign(new Error('timed out'), { code: 'ETIMEDOUT_WEBHOOK' });
          // An answer that began but did not end in time is a failed try too.
          if (statusSeen !== null)
            done({ status: statusSeen, error: `The answer did not end within ${timeoutMs / 1000} s` });
          else fail(error);
        }, timeoutMs);
        let statusSeen: number | null = null;

        let url: URL;
        try {
          url = new URL(rawUrl);
        } catch {
          return fail(new Error('The URL is not valid'));
        }
        const secure = url.protocol === 'https:';
        if (!secure && !(allowLoopback && url.protocol === 'http:'))
          return fail(new Error('Webhooks are sent to https:// URLs only'));
        const literal = literalAddress(url.hostname);
        if (literal && !isAllowedAddress(literal, allowLoopback)) return fail(refusal(literal));

        const payload = Buffer.from(body, 'utf8');
        request = (secure ? https : http).request(url, {
          method: 'POST',
          // A fresh connection each time: a pooled socket would skip the checks below.
          agent: false,
          lookup,
          headers: {
            ...headers,
            'user-agent': USER_AGENT,
            'content-length': String(payload.length),
          },
        });
        request.on('socket', (socket: Socket) => {
          const check = () => {
            const address = socket.remoteAddress;
            if (!address || !isAllowedAddress(address, allowLoopback))
              request?.destroy(refusal(address ?? 'unknown'));
          };
          // The address actually connected to, checked before the request is written to it.
          socket.prependOnceListener('connect', check);
        });
        request.on('error', fail);
        request.on('response', (response) => {
          const status = response.statusCode ?? 0;
          statusSeen = status;
          if (status >= 300 && status < 400)
            return done({
              status,
              error: `The endpoint answered ${status}, a redirect, which is not followed`,
            });
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            // Enough of an answer: its status is what counts, and a huge one is cut here.
            if (read >= maxBytes) done({ status, error: null });
          });
          response.on('end', () => done({ status, error: null }));
          response.on('error', () => done({ status, error: null }));
        });
        request.end(payload);
      });
    },
  };
}
