import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TOLERANCE_SECONDS } from '@tunesmith/shared/developer-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ';
const root = join(import.meta.dirname, '..', '..');

/** A delivery as Tunesmith signs it: `t=<unix>,v1=<hex HMAC-SHA256(secret, t.body)>`. */
function signature(body: string, at = Math.floor(Date.now() / 1000), key = secret): string {
  return `t=${at},v1=${createHmac('sha256', key).update(`${at}.${body}`).digest('hex')}`;
}

const event = (id: string, track: string) =>
  JSON.stringify({
    id,
    type: 'track.completed',
    createdAt: new Date().toISOString(),
    data: { track: { id: track } },
  });

let receiver: ChildProcess;
let url: string;
let output = '';

beforeAll(async () => {
  // The example as a developer runs it: its own process, through tsx.
  receiver = spawn(
    join(root, 'node_modules', '.bin', 'tsx'),
    [join(import.meta.dirname, 'verify-webhook.ts')],
    {
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  receiver.stdout?.setEncoding('utf8');
  receiver.stdout?.on('data', (text: string) => {
    output += text;
  });
  while (!/Listening on (\S+)/.test(output)) await once(receiver.stdout as NodeJS.ReadableStream, 'data');
  url = (/Listening on (\S+)/.exec(output) as RegExpExecArray)[1] as string;
}, 30_000);

/** Waits for the receiver to print `line` (its output reaches us after its answer does). */
async function printed(line: string): Promise<void> {
  while (!output.split('\n').includes(line)) await once(receiver.stdout as NodeJS.ReadableStream, 'data');
}

/** How often the receiver printed `line`, once a later delivery's line is out (output comes in order). */
async function timesPrinted(line: string): Promise<number> {
  const marker = event(`evt_marker_${line}`, `marker_${line.replaceAll(' ', '_')}`);
  expect((await deliver(marker, signature(marker))).status).toBe(200);
  await printed(`track.completed marker_${line.replaceAll(' ', '_')}`);
  return output.split('\n').filter((printedLine) => printedLine === line).length;
}

afterAll(() => {
  receiver?.kill();
});

const deliver = (body: string, header?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(header ? { [WEBHOOK_SIGNATURE_HEADER]: header } : {}),
    },
    body,
  });

describe('the verify-webhook example', () => {
  it('accepts a delivery signed with the secret, and handles the event', async () => {
    const body = event('evt_ok', 'trk_ok');
    expect((await deliver(body, signature(body))).status).toBe(200);
    await printed('track.completed trk_ok');
  });

  it('handles an event delivered twice once', async () => {
    const body = event('evt_twice', 'trk_twice');
    expect((await deliver(body, signature(body))).status).toBe(200);
    expect((await deliver(body, signature(body))).status).toBe(200);
    expect(await timesPrinted('track.completed trk_twice')).toBe(1);
  });

  it('refuses a body changed after signing', async () => {
    const body = event('evt_tampered', 'trk_signed');
    expect((await deliver(body.replace('trk_signed', 'trk_changed'), signature(body))).status).toBe(400);
    expect(await timesPrinted('track.completed trk_changed')).toBe(0);
  });

  it('refuses a signature made with another secret, or none', async () => {
    const body = event('evt_other', 'trk_other');
    expect((await deliver(body, signature(body, undefined, 'whsec_other'))).status).toBe(400);
    expect((await deliver(body)).status).toBe(400);
    expect(await timesPrinted('track.completed trk_other')).toBe(0);
  });

  it(`refuses a delivery signed more than ${WEBHOOK_TOLERANCE_SECONDS} seconds ago, a replay`, async () => {
    const body = event('evt_old', 'trk_old');
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(body, signature(body, now - WEBHOOK_TOLERANCE_SECONDS - 5))).status).toBe(400);
    expect((await deliver(body, signature(body, now - WEBHOOK_TOLERANCE_SECONDS + 30))).status).toBe(200);
  });
});
