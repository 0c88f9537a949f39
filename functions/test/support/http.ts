import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Agent, type Headers, fetch as undiciFetch } from 'undici';
import { sinkMailbox } from './mail-sink';
import { awaitLink, type MailedLink, type MailedPath, type StoredMail, storedMails } from './mailbox';
import { apiUrl, clientConfig, cloudEnv, target } from './run';
import { countsAddress, liftAddressLimits } from './stage-address';

export { apiUrl, cloudEnv };

export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
  setCookies: string[];
}

/** A cookie's name as the API sets it on this run's origin: `ts_session` locally, `__Host-ts_session` over https. */
export const cookieName = (base: string): string => target.cookie(base);

const isLoopback = target.ownAddressPerBrowser;
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
    if (stageAddress && countsAddress(method, path)) await liftStageAddressLimits();
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

/**
 * Against a stage every browser is this machine's one address; the global
 * setup learned it (stage-address.ts), and the counters the API keeps for it
 * are cleared before each call that counts it.
 */
const stageAddress = target.kind === 'stage' ? cloudEnv.TEST_CLIENT_ADDRESS : undefined;
let stageTable: DynamoDBDocumentClient | undefined;
function liftStageAddressLimits(): Promise<void> {
  stageTable ??= DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig('dynamodb')));
  return liftAddressLimits(stageTable, cloudEnv.TABLE_NAME ?? '', stageAddress as string);
}

/** Every mail the API sent that this run can read, oldest first: the local SES store, or the stage's mail sink. */
const allMails: () => Promise<StoredMail[]> = (() => {
  const source = target.mail;
  if (source.kind === 'local-ses') return () => storedMails(source.endpoint);
  let sink: ReturnType<typeof sinkMailbox> | undefined;
  return () => {
    sink ??= sinkMailbox(new S3Client(clientConfig('s3')), source.bucket, source.prefix);
    return sink.mails();
  };
})();

/** How long mail may take: moments locally, SES sending and receiving on a stage. */
const mailWait = target.kind === 'stage' ? { timeoutMs: 90_000, intervalMs: 1_000 } : { timeoutMs: 2_000 };

/** The mails to `to` this run can read, oldest first. */
export async function mailsTo(to: string): Promise<StoredMail[]> {
  return (await allMails()).filter((m) =>
    m.destination.to.some((t) => t.toLowerCase().includes(to.toLowerCase())),
  );
}

/** The newest mail to `to` whose text contains `path`, and the token in its link; waits for it to arrive. */
export function mailedToken(to: string, path: MailedPath): Promise<MailedLink> {
  if (target.mail.kind === 'local-ses' && !target.mail.endpoint) {
    throw new Error('These tests read mail from the local SES store (SES_ENDPOINT)');
  }
  return awaitLink(allMails, to, path, mailWait);
}

/** Mails to `to` this run can read. */
export async function mailCount(to: string): Promise<number> {
  return (await mailsTo(to)).length;
}

/** Waits until `to` has at least `count` mails (they arrive after the call that sends them); answers how many. */
export async function mailCountReaching(to: string, count: number): Promise<number> {
  const until = Date.now() + mailWait.timeoutMs;
  for (;;) {
    const now = await mailCount(to);
    if (now >= count || Date.now() >= until) return now;
    await new Promise((resolve) => setTimeout(resolve, mailWait.intervalMs ?? 100));
  }
}

let counter = 0;
/** A unique address per call, so tests never collide: on a stage, a mailbox of its test mail domain. */
export function uniqueEmail(label = 'user'): string {
  counter++;
  return `${label}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@${target.mailDomain}`;
}
