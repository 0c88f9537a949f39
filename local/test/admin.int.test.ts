import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@tunesmith/functions/data/keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticatorCode } from '../../functions/test/support/authenticator';
import type { LocalCloud } from '../src/cloud';
import { startLocalCloudProcess } from '../src/cloud-process';

// Administrators: the first admin the local cloud creates (identity and
// profile), `npm run admin:create -- --local` against a running cloud, each
// proven by signing in through the API (the password, then the authenticator
// set up at the first sign-in), and `npm run admin:reset-mfa -- --local`.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-admins-'));
let cloud: LocalCloud;

const startCloud = () =>
  startLocalCloudProcess({ port: 0, dataDir, fresh: false, persist: true, web: 'none', quiet: true });

beforeAll(async () => {
  cloud = await startCloud();
});

afterAll(async () => {
  await cloud?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function stores(env: LocalCloud['env']) {
  const credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY };
  const dynamo = new DynamoDBClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT, credentials });
  const cognito = new CognitoIdentityProviderClient({
    region: env.AWS_REGION,
    endpoint: env.COGNITO_ENDPOINT,
    credentials,
  });
  const documents = DynamoDBDocumentClient.from(dynamo);
  return {
    profile: async (username: string) =>
      (await documents.send(new GetCommand({ TableName: env.TABLE_NAME, Key: keys.admin(username) }))).Item,
    deleteProfile: (username: string) =>
      documents.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: keys.admin(username) })),
    sub: async (username: string) =>
      (
        await cognito.send(new AdminGetUserCommand({ UserPoolId: env.ADMIN_POOL_ID, Username: username }))
      ).UserAttributes?.find((a) => a.Name === 'sub')?.Value,
    close() {
      dynamo.destroy();
      cognito.destroy();
    },
  };
}

/** A browser's call to the cloud's API, keeping the cookies it is given. */
async function call(cookies: Map<string, string>, method: string, path: string, body?: unknown) {
  const response = await fetch(`${cloud.url}${path}`, {
    method,
    headers: {
      origin: cloud.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const name = pair.slice(0, pair.indexOf('='));
    if (/max-age=0/i.test(line)) cookies.delete(name);
    else cookies.set(name, pair.slice(pair.indexOf('=') + 1));
  }
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The authenticator key each admin set up in this file, by username. */
const authenticators = new Map<string, string>();

/**
 * Signs in at the admin API as the SPA does: the password, then the
 * authenticator's code (setting it up the first time, with the key shown).
 * Answers the last call, and the browser's cookies.
 */
async function adminLogin(username: string, password: string) {
  const cookies = new Map<string, string>();
  const login = await call(cookies, 'POST', '/api/admin/login', { username, password });
  if (login.status !== 200) return { ...login, cookies, step: undefined };
  if (login.body.secondFactor === 'setup') authenticators.set(username, String(login.body.secret));
  const code = await authenticatorCode(authenticators.get(username) as string);
  const signedIn = await call(cookies, 'POST', '/api/admin/login/code', { code });
  return { ...signedIn, cookies, step: login.body.secondFactor };
}

/** Runs a documented command; resolves with its exit code and output. */
function runScript(
  script: string,
  args: string[],
  env: Record<string, string> = { TUNESMITH_DATA_DIR: dataDir },
) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', script, '--', ...args],
      { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
const adminCreate = (args: string[], env?: Record<string, string>) => runScript('admin:create', args, env);
const resetMfa = (args: string[], env?: Record<string, string>) => runScript('admin:reset-mfa', args, env);

describe('first admin of the local cloud', () => {
  it('has an identity and an active admin profile, and signs in with the printed credentials', async () => {
    const s = stores(cloud.env);
    const profile = await s.profile(cloud.admin.username);
    expect(profile).toMatchObject({
      username: cloud.admin.username,
      role: 'admin',
      isActive: true,
      id: await s.sub(cloud.admin.username),
    });
    s.close();

    const first = await adminLogin(cloud.admin.username, cloud.admin.password);
    expect(first.step).toBe('setup');
    expect([first.status, first.body]).toEqual([200, { username: cloud.admin.username, role: 'admin' }]);
    expect(cloud.admin.password.length).toBeGreaterThanOrEqual(12);
  });
});

describe('npm run admin:create -- --local', () => {
  it('creates an admin with a generated password it prints, who can sign in', async () => {
    const result = await adminCreate([
      '--local',
      '--username',
      'generated-admin',
      '--email',
      'ga@example.com',
    ]);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Created admin "generated-admin"');
    expect(result.stdout).toContain('sets up an authenticator app');
    const password = /Password: (\S+)/.exec(result.stdout)?.[1] as string;
    expect(password.length).toBeGreaterThanOrEqual(20);
    const signedIn = await adminLogin('generated-admin', password);
    expect([signedIn.step, signedIn.status, signedIn.body]).toEqual([
      'setup',
      200,
      { username: 'generated-admin', role: 'admin' },
    ]);
    const s = stores(cloud.env);
    expect(await s.profile('generated-admin')).toMatchObject({
      email: 'ga@example.com',
      role: 'admin',
      isActive: true,
    });
    s.close();
  });

  it('creates an admin with the given password and prints no password', async () => {
    const result = await adminCreate(['--local', '--username', 'chosen-admin', '--password', 'twelve-chars']);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('Password:');
    expect((await adminLogin('chosen-admin', 'twelve-chars')).status).toBe(200);
    expect((await adminLogin('chosen-admin', 'wrong-password')).status).toBe(401);
  });

  it('refuses a username that exists, with a message and exit code 1', async () => {
    const result = await adminCreate([
      '--local',
      '--username',
      cloud.admin.username,
      '--password',
      'another-one-long',
    ]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Admin "${cloud.admin.username}" already exists`);
    // The existing admin is untouched: the password leads on to the authenticator set up before.
    const login = await call(new Map(), 'POST', '/api/admin/login', cloud.admin);
    expect([login.status, login.body]).toEqual([200, { secondFactor: 'code' }]);
  });

  it('refuses a password shorter than 12 characters and a missing username', async () => {
    const short = await adminCreate(['--local', '--username', 'short-admin', '--password', '12345678901']);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    expect((await adminLogin('short-admin', '12345678901')).status).toBe(401);

    const missing = await adminCreate(['--local']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--username is required');
  });

  it('without --local, names the settings it needs from the stack outputs', async () => {
    const result = await adminCreate(['--username', 'aws-admin'], {
      TABLE_NAME: '',
      ADMIN_POOL_ID: '',
      ADMIN_POOL_CLIENT_ID: '',
      AWS_REGION: '',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TABLE_NAME, ADMIN_POOL_ID, ADMIN_POOL_CLIENT_ID, AWS_REGION');
    expect(result.stderr).toContain('stack outputs');
  });
});

describe('restarting on an existing data directory', () => {
  it("restores a missing admin profile, keeps the admin's credentials, and admin:create refuses a stopped cloud", async () => {
    const before = stores(cloud.env);
    await before.deleteProfile(cloud.admin.username);
    before.close();
    const admin = cloud.admin;
    await cloud.stop();

    const stopped = await adminCreate(['--local', '--username', 'late-admin']);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('is not running');

    cloud = await startCloud();
    expect(cloud.admin).toEqual(admin);
    const after = stores(cloud.env);
    expect(await after.profile(admin.username)).toMatchObject({ role: 'admin', isActive: true });
    after.close();
    // The authenticator set up before the restart is still the one asked for.
    const again = await adminLogin(admin.username, admin.password);
    expect([again.step, again.status]).toEqual(['code', 200]);
    // Admins made by the command survive the restart too.
    expect((await adminLogin('chosen-admin', 'twelve-chars')).status).toBe(200);
  });
});

describe('npm run admin:reset-mfa -- --local', () => {
  it('ends the sessions of an admin who lost their authenticator; the new password sets up a new one', async () => {
    const created = await adminCreate([
      '--local',
      '--username',
      'lost-phone',
      '--password',
      'lost-phone-pass',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const before = await adminLogin('lost-phone', 'lost-phone-pass');
    expect([before.step, before.status]).toEqual(['setup', 200]);
    expect((await call(before.cookies, 'GET', '/api/admin/user')).status).toBe(200);

    const reset = await resetMfa(['--local', '--username', 'lost-phone']);

    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('Reset the second factor of admin "lost-phone"');
    const password = /New password: (\S+)/.exec(reset.stdout)?.[1] as string;
    expect(password.length).toBeGreaterThanOrEqual(20);
    // Every session of theirs is over, a refresh included.
    expect((await call(before.cookies, 'GET', '/api/admin/user')).status).toBe(401);
    expect((await adminLogin('lost-phone', 'lost-phone-pass')).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await adminLogin('lost-phone', password);
    expect([after.step, after.status, after.body]).toEqual([
      'setup',
      200,
      { username: 'lost-phone', role: 'admin' },
    ]);
    // The audit trail says who did it, and no password.
    const stats = await call(after.cookies, 'GET', '/api/admin/dashboard/stats');
    const activity = stats.body.recentActivity as {
      actor: string;
      action: string;
      target: string;
      summary: string;
    }[];
    const entry = activity.find((a) => a.action === 'admin.reset-second-factor' && a.target === 'lost-phone');
    expect(entry?.actor).toMatch(/command line/);
    expect(JSON.stringify(activity)).not.toContain(password);
  });

  it('takes a chosen password, and refuses an unknown admin or a short password with exit code 1', async () => {
    await adminCreate(['--local', '--username', 'chosen-reset', '--password', 'chosen-reset-1']);
    const chosen = await resetMfa(['--local', '--username', 'chosen-reset', '--password', 'chosen-reset-2']);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).not.toContain('New password:');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(
      (
        await call(new Map(), 'POST', '/api/admin/login', {
          username: 'chosen-reset',
          password: 'chosen-reset-2',
        })
      ).body,
    ).toEqual({
      secondFactor: 'setup',
      secret: expect.any(String),
      otpauthUri: expect.any(String),
    });

    const unknown = await resetMfa(['--local', '--username', 'nobody-here']);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'There is no admin "nobody-here".']);
    const short = await resetMfa(['--local', '--username', 'chosen-reset', '--password', 'short']);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 12 characters');
    const missing = await resetMfa(['--local']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--username is required');
  });
});
