import { Agent, fetch as undiciFetch } from 'undici';
import { inject } from 'vitest';
import { type MailedPath, mailedLink, type StoredMail, storedMails } from './mailbox';

export const apiUrl = inject('apiUrl');
export const cloudEnv = inject('cloudEnv');

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  setCookies: string[];
}

const isLoopback = /^http:\/\/127\.0\.0\.1[:/]/.test(apiUrl);
const agents = new Map<string, Agent>();
const agentFor = (address: string) => {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ localAddress: address });
    agents.set(address, agent);
  }
  return agent;
};

/**
 * A browser-like client: keeps cookies per name (honouring Max-Age=0), sends
 * the site's Origin on every call and JSON bodies, follows no redirects.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  /**
   * Against the local cloud each browser connects from a loopback address of
   * its own (all of 127/8 is this machine), as separate people do: the edge
   * records the connection's address, whatever X-Forwarded-For says, and rate
   * limits count per address.
   */
  readonly address: string;
  private readonly dispatcher: Agent | undefined;

  constructor(
    readonly origin: string = apiUrl,
    address = `127.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
  ) {
    this.address = address;
    this.dispatcher = isLoopback ? agentFor(address) : undefined;
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await undiciFetch(`${apiUrl}${path}`, {
      method,
      redirect: 'manual',
      ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      headers: {
        origin: this.origin,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { text };
    }
    return { status: response.status, body: parsed, headers: response.headers, setCookies };
  }

  get = (path: string, headers?: Record<string, string>) => this.call('GET', path, undefined, headers);
  post = (path: string, body: unknown = {}, headers?: Record<string, string>) =>
    this.call('POST', path, body, headers);
  put = (path: string, body: unknown, headers?: Record<string, string>) =>
    this.call('PUT', path, body, headers);

  /** A second browser holding the same cookies (a copied session). */
  clone(): Browser {
    const other = new Browser(this.origin, this.address);
    for (const [k, v] of this.cookies) other.cookies.set(k, v);
    return other;
  }
}

/** The newest mail to `to` in the local SES store whose text contains `path`, and the token in its link. */
export async function mailedToken(
  to: string,
  path: MailedPath,
): Promise<{ token: string; link: string; mail: StoredMail }> {
  const endpoint = cloudEnv.SES_ENDPOINT;
  if (!endpoint) throw new Error('These tests read mail from the local SES store (SES_ENDPOINT)');
  return mailedLink(endpoint, to, path);
}

/** Mails the store holds for `to`. */
export async function mailCount(to: string): Promise<number> {
  const emails = await storedMails(cloudEnv.SES_ENDPOINT ?? '');
  return emails.filter((m) => m.destination.to.some((t) => t.includes(to))).length;
}

let counter = 0;
/** A unique address per call, so tests never collide. */
export function uniqueEmail(label = 'user'): string {
  counter++;
  return `${label}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}
