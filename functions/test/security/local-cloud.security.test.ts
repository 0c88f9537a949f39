import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { apiUrl, cloudEnv } from '../support/http';

// The local cloud is not an open door: every server it starts listens on the
// loopback address only (DynamoDB Local has no option for it; a launcher binds it).

/** The local addresses sockets listen on for `port`, from the kernel's tables. */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const out: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [address, localPort] = (fields[1] ?? '').split(':');
      if (fields[3] === '0A' && localPort === hexPort && address) out.push(address);
    }
  }
  return out;
}

const LOOPBACK = new Set([
  '0100007F', // 127.0.0.1
  '0000000000000000FFFF00000100007F', // ::ffff:127.0.0.1
  '00000000000000000000000001000000', // ::1
]);

describe.skipIf(!inject('isLocal'))('the local cloud', () => {
  it('listens on 127.0.0.1 only: the app, DynamoDB Local, S3, Cognito, SES, the music provider and Stripe', () => {
    const endpoints = {
      app: apiUrl,
      dynamodb: cloudEnv.DYNAMODB_ENDPOINT,
      s3: cloudEnv.S3_ENDPOINT,
      cognito: cloudEnv.COGNITO_ENDPOINT,
      ses: cloudEnv.SES_ENDPOINT,
      music: cloudEnv.FAL_BASE_URL,
      stripe: cloudEnv.STRIPE_API_BASE,
    };
    for (const [name, endpoint] of Object.entries(endpoints)) {
      expect(endpoint, name).toBeTruthy();
      const port = Number(new URL(endpoint as string).port);
      const addresses = listeners(port);
      expect(addresses.length, `${name} is listening on ${port}`).toBeGreaterThan(0);
      for (const address of addresses)
        expect(LOOPBACK.has(address), `${name} listens on ${address}`).toBe(true);
    }
  });
});
