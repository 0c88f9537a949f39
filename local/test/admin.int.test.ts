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
import type { LocalCloud } from '../src/cloud';
import { startLocalCloudProcess } from '../src/cloud-process';

// Administrators: the first admin the local cloud creates (identity and
// profile), and `npm run admin:create -- --local` against a running cloud,
// each proven by signing in through the API.

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

/** Signs in at the admin API as the SPA does. */
async function adminLogin(username: string, password: string) {
  const response = await fetch(`${cloud.url}/api/admin/login`, {
    method: 'POST',
    headers: { origin: cloud.url, 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Runs the documented command; resolves with its exit code and output. */
function adminCreate(args: string[], env: Record<string, string> = { TUNESMITH_DATA_DIR: dataDir }) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'admin:create', '--', ...args],
      { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

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

    expect(await adminLogin(cloud.admin.username, cloud.admin.password)).toEqual({
      status: 200,
      body: { username: cloud.admin.username, role: 'admin' },
    });
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
    const password = /Password: (\S+)/.exec(result.stdout)?.[1] as string;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(await adminLogin('generated-admin', password)).toEqual({
      status: 200,
      body: { username: 'generated-admin', role: 'admin' },
    });
    const s = stores(cloud.env);
    expect(await s.profile('generated-admin')).toMatchObject({
      email: 'ga@example.com',
      role: 'admin',
      isActive: true,
    });
    s.close();
  });

  it('creates an admin with the given password and prints no password', async () => {
    const result = await adminCreate(['--local', '--username', 'chosen-admin', '--password', 'six-ch']);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('Password:');
    expect((await adminLogin('chosen-admin', 'six-ch')).status).toBe(200);
    expect((await adminLogin('chosen-admin', 'wrong-password')).status).toBe(401);
  });

  it('refuses a username that exists, with a message and exit code 1', async () => {
    const result = await adminCreate([
      '--local',
      '--username',
      cloud.admin.username,
      '--password',
      'another-one',
    ]);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Admin "${cloud.admin.username}" already exists`);
    // The existing admin is untouched.
    expect((await adminLogin(cloud.admin.username, cloud.admin.password)).status).toBe(200);
  });

  it('refuses a password shorter than 6 characters and a missing username', async () => {
    const short = await adminCreate(['--local', '--username', 'short-admin', '--password', '12345']);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 6 characters');
    expect((await adminLogin('short-admin', '12345')).status).toBe(401);

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
    expect((await adminLogin(admin.username, admin.password)).status).toBe(200);
    // Admins made by the command survive the restart too.
    expect((await adminLogin('chosen-admin', 'six-ch')).status).toBe(200);
  });
});
