/**
 * Receives Tunesmith webhooks, and trusts one only once its signature checks out.
 * Run: WEBHOOK_SECRET=whsec_… PORT=8787 npx tsx verify-webhook.ts (Node 20 or later),
 * and add this server's https address as an endpoint in Profile → Developers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Deliveries older (or newer) than this are refused: a captured delivery cannot be replayed later. */
const TOLERANCE_SECONDS = 300;

/**
 * Whether `header` (Tunesmith-Signature: `t=<unix seconds>,v1=<hex>`) is the
 * HMAC-SHA256 of `t.body` with `secret`, made within the tolerance of `now`.
 * `body` must be the raw bytes received, before any JSON parsing.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: Buffer,
  now = Date.now(),
): boolean {
  const fields = new Map(
    (header ?? '').split(',').map((field) => {
      const at = field.indexOf('=');
      return [field.slice(0, at).trim(), field.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = fields.get('t') ?? '';
  const signature = fields.get('v1') ?? '';
  if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const given = Buffer.from(signature, 'hex');
  // timingSafeEqual: comparing byte by byte would tell an attacker how much of a guess was right.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('Set WEBHOOK_SECRET to the endpoint’s signing secret (whsec_…)');

// A delivery can come more than once (a retry after a lost answer): do each event once.
const seen = new Set<string>();

const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (!verifySignature(secret, request.headers['tunesmith-signature'] as string | undefined, body)) {
    response.writeHead(400).end('Invalid signature');
    return;
  }
  const event = JSON.parse(body.toString('utf8')) as {
    id: string;
    type: string;
    data: { track?: { id: string } };
  };
  if (!seen.has(event.id)) {
    seen.add(event.id);
    console.log(`${event.type} ${event.data.track?.id ?? ''}`.trim());
  }
  // Answer 2xx quickly (within 5 seconds); do slow work after answering.
  response.writeHead(200).end();
});

server.listen(Number(process.env.PORT ?? 8787), '127.0.0.1', () => {
  console.log(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
