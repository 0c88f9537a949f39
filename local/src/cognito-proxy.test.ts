import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jwtPayload, RefreshTokenRegistry, startCognitoProxy } from './cognito-proxy';

const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An unsigned JWT-shaped token with this payload (the registry reads `exp`, nothing checks signatures). */
const token = (payload: Record<string, unknown>) =>
  `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('RefreshTokenRegistry', () => {
  it('remembers tokens per pool and identity, across restarts, in an owner-only file', () => {
    const file = path.join(dir, 'a.json');
    const registry = new RefreshTokenRegistry(file);
    const t1 = token({ jti: 1, exp: inAnHour() });
    const t2 = token({ jti: 2, exp: inAnHour() });
    const t3 = token({ jti: 3, exp: inAnHour() });
    registry.add({ poolId: 'p1', sub: 's1', username: 'ann', clientId: 'c1', token: t1 });
    registry.add({ poolId: 'p1', sub: 's1', username: 'ann', clientId: 'c2', token: t2 });
    registry.add({ poolId: 'p2', sub: 's1', username: 'ann', clientId: 'c3', token: t3 });

    const reloaded = new RefreshTokenRegistry(file);
    expect(reloaded.sessionsOf('p1', 's1').map((s) => [s.clientId, s.token])).toEqual([
      ['c1', t1],
      ['c2', t2],
    ]);
    expect(reloaded.sessionsOf('p2', 's1').map((s) => s.token)).toEqual([t3]);
    expect(reloaded.sessionsOf('p1', 'other')).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('forgets revoked tokens and the tokens of a global sign-out', () => {
    const file = path.join(dir, 'b.json');
    const registry = new RefreshTokenRegistry(file);
    const [t1, t2, t3] = [1, 2, 3].map((jti) => token({ jti, exp: inAnHour() })) as [string, string, string];
    for (const t of [t1, t2, t3])
      registry.add({ poolId: 'p', sub: 's', username: 'u', clientId: 'c', token: t });

    registry.remove(t2);
    expect(registry.sessionsOf('p', 's').map((s) => s.token)).toEqual([t1, t3]);
    registry.forget('p', 's', [t1]);
    expect(new RefreshTokenRegistry(file).sessionsOf('p', 's').map((s) => s.token)).toEqual([t3]);
    registry.forget('p', 's', [t3]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, pools: { p: {} } });
  });

  it('drops expired tokens when adding and starts empty from an unreadable file', () => {
    const file = path.join(dir, 'c.json');
    const registry = new RefreshTokenRegistry(file);
    const expired = token({ exp: Math.floor(Date.now() / 1000) - 1 });
    const fresh = token({ exp: inAnHour() });
    registry.add({ poolId: 'p', sub: 's', username: 'u', clientId: 'c', token: expired });
    registry.add({ poolId: 'p', sub: 's', username: 'u', clientId: 'c', token: fresh });
    expect(registry.sessionsOf('p', 's').map((s) => s.token)).toEqual([fresh]);

    writeFileSync(file, '{not json');
    expect(new RefreshTokenRegistry(file).sessionsOf('p', 's')).toEqual([]);
  });
});

describe('jwtPayload', () => {
  it('reads the payload of a JWT and nothing else', () => {
    expect(jwtPayload(token({ sub: 'x' }))).toEqual({ sub: 'x' });
    expect(jwtPayload('not-a-token')).toBeUndefined();
    expect(jwtPayload('a.!!!.c')).toBeUndefined();
    expect(jwtPayload(undefined)).toBeUndefined();
  });
});

describe('startCognitoProxy with cognito-local still to start', () => {
  it('holds a request until cognito-local answers, then forwards it', async () => {
    const upstream = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`cognito-local saw ${req.method} ${req.url}`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    let answering: (address: string) => void = () => {};
    const proxy = await startCognitoProxy({
      port: 0,
      upstream: new Promise<string>((resolve) => (answering = resolve)),
      registryFile: path.join(dir, 'held.json'),
      mfaFile: path.join(dir, 'held-mfa.json'),
    });
    try {
      const answer = fetch(`${proxy.url}/health`);
      const early = await Promise.race([
        answer.then(() => 'answered'),
        new Promise((resolve) => setTimeout(resolve, 100, 'waiting')),
      ]);
      answering(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
      const response = await answer;

      expect(early).toBe('waiting');
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('cognito-local saw GET /health');
    } finally {
      await proxy.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it('answers 502 with why when cognito-local did not start', async () => {
    const proxy = await startCognitoProxy({
      port: 0,
      upstream: Promise.reject(new Error('its port is in use')),
      registryFile: path.join(dir, 'failed.json'),
      mfaFile: path.join(dir, 'failed-mfa.json'),
    });
    try {
      const response = await fetch(proxy.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'AWSCognitoIdentityProviderService.DescribeUserPool',
        },
        body: JSON.stringify({ UserPoolId: 'local_pool' }),
      });

      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({
        __type: 'ServiceUnavailableException',
        message: 'cognito-local did not start: its port is in use',
      });
    } finally {
      await proxy.close();
    }
  });
});
