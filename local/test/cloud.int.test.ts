import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  AdminInitiateAuthCommand,
  CognitoIdentityProviderClient,
  DescribeUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { dynamoGenerationStore } from '@tunesmith/functions/adapters/dynamo/generation-store';
import { dynamoPlanRepository } from '@tunesmith/functions/adapters/dynamo/plan-repository';
import { dynamoQuotaStore } from '@tunesmith/functions/adapters/dynamo/quota-store';
import { dynamoUserRepository } from '@tunesmith/functions/adapters/dynamo/user-repository';
import {
  markCompleted,
  markGenerating,
  startGeneration,
} from '@tunesmith/functions/domain/generations/generation-service';
import { aUser } from '@tunesmith/functions/testing/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalCloud, startLocalCloud } from '../src/cloud';
import { startLocalCloudProcess } from '../src/cloud-process';
import { localEnvNames } from '../src/env';
import { alive, descendants, waitForExit } from './processes';

// The local cloud as a whole: what it leaves on disk between starts, what
// --fresh removes, and that it never leaves an emulator behind.

const dirs: string[] = [];
const clouds: LocalCloud[] = [];

afterEach(async () => {
  await Promise.all(clouds.splice(0).map((cloud) => cloud.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-cloud-test-'));
  dirs.push(dir);
  return dir;
}

async function start(
  dataDir: string,
  fresh = false,
  ports?: Parameters<typeof startLocalCloud>[0]['ports'],
): Promise<LocalCloud> {
  const cloud = await startLocalCloud({
    port: 0,
    dataDir,
    fresh,
    persist: true,
    web: 'none',
    quiet: true,
    ...(ports ? { ports } : {}),
  });
  clouds.push(cloud);
  return cloud;
}

/** Stops the cloud and checks that every process it had started is gone. */
async function stopCleanly(cloud: LocalCloud): Promise<void> {
  // SES starts once the routes are open, and on a later start cognito-local too: a request to
  // either's address waits for it.
  expect((await fetch(`${cloud.env.SES_ENDPOINT}/health-check`)).status).toBe(200);
  expect((await fetch(`${cloud.env.COGNITO_ENDPOINT}/health`)).status).toBe(200);
  const before = descendants(process.pid);
  // The guards (DynamoDB Local's, cognito-local's and SES's) plus the JVM under the DynamoDB guard.
  expect(cloud.pids.length).toBe(3);
  expect(before).toEqual(expect.arrayContaining(cloud.pids));
  expect(before.length).toBeGreaterThan(cloud.pids.length);

  await cloud.stop();
  await cloud.stop();

  expect(alive(before)).toEqual([]);
}

function clients(env: LocalCloud['env']) {
  const credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY };
  const region = env.AWS_REGION;
  const dynamo = new DynamoDBClient({ region, endpoint: env.DYNAMODB_ENDPOINT, credentials });
  return {
    documents: DynamoDBDocumentClient.from(dynamo),
    s3: new S3Client({ region, endpoint: env.S3_ENDPOINT, credentials, forcePathStyle: true }),
    cognito: new CognitoIdentityProviderClient({ region, endpoint: env.COGNITO_ENDPOINT, credentials }),
    ses: new SESv2Client({ region, endpoint: env.SES_ENDPOINT, credentials }),
    destroy() {
      for (const client of [dynamo, this.s3, this.cognito, this.ses]) client.destroy();
    },
  };
}

const marker = { pk: 'IT#marker', sk: 'IT' };

async function writeMarkers(cloud: LocalCloud): Promise<void> {
  const c = clients(cloud.env);
  await c.documents.send(
    new PutCommand({ TableName: cloud.env.TABLE_NAME, Item: { ...marker, value: 'kept' } }),
  );
  await c.s3.send(
    new PutObjectCommand({ Bucket: cloud.env.TRACKS_BUCKET, Key: 'it/marker.txt', Body: 'kept' }),
  );
  c.destroy();
}

async function readMarkers(cloud: LocalCloud): Promise<{ item: unknown; object: string | undefined }> {
  const c = clients(cloud.env);
  const item = (await c.documents.send(new GetCommand({ TableName: cloud.env.TABLE_NAME, Key: marker })))
    .Item;
  const object = await c.s3
    .send(new GetObjectCommand({ Bucket: cloud.env.TRACKS_BUCKET, Key: 'it/marker.txt' }))
    .then((out) => out.Body?.transformToString())
    .catch(() => undefined);
  c.destroy();
  return { item, object };
}

describe('local cloud', () => {
  it('sets every documented variable and serves each emulator at its endpoint', async () => {
    // A configured port is used as given (`npm start` sets STEPFUNCTIONS_PORT).
    const [stepFunctionsPort, lambdaPort] = [await freePort(), await freePort()];
    const cloud = await start(tempDir(), false, { stepfunctions: stepFunctionsPort, lambda: lambdaPort });
    const c = clients(cloud.env);

    expect(Object.keys(cloud.env).sort()).toEqual([...localEnvNames].sort());
    for (const name of localEnvNames) expect(process.env[name]).toBe(cloud.env[name]);
    expect(cloud.env.PUBLIC_ORIGIN).toBe(cloud.url);
    const users = await c.cognito.send(new DescribeUserPoolCommand({ UserPoolId: cloud.env.USER_POOL_ID }));
    const admins = await c.cognito.send(new DescribeUserPoolCommand({ UserPoolId: cloud.env.ADMIN_POOL_ID }));
    expect(users.UserPool?.UsernameAttributes).toEqual(['email']);
    expect(admins.UserPool?.UsernameAttributes ?? []).toEqual([]);
    await c.ses.send(
      new SendEmailCommand({
        FromEmailAddress: cloud.env.MAIL_FROM,
        Destination: { ToAddresses: ['someone@example.test'] },
        Content: { Simple: { Subject: { Data: 'Hello' }, Body: { Text: { Data: 'Hi' } } } },
      }),
    );
    const store = (await (await fetch(`${cloud.env.SES_ENDPOINT}/store`)).json()) as {
      emails: { subject: string }[];
    };
    expect(store.emails.map((email) => email.subject)).toEqual(['Hello']);
    const preflight = await fetch(`${cloud.env.S3_ENDPOINT}/${cloud.env.UPLOADS_BUCKET}/u/file.mp3`, {
      method: 'OPTIONS',
      headers: {
        origin: cloud.url,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PUT/);
    // What a browser's presigned upload sees: the S3 proxy checks its signature as S3 does.
    const stamp = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const forged = await fetch(`${cloud.env.S3_ENDPOINT}/${cloud.env.UPLOADS_BUCKET}/u/file.mp3`, {
      method: 'PUT',
      headers: {
        origin: cloud.url,
        'content-type': 'audio/mpeg',
        'x-amz-date': stamp,
        'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        authorization: `AWS4-HMAC-SHA256 Credential=S3RVER/${stamp.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0`,
      },
      body: 'abc',
    });
    expect(forged.status).toBe(403);
    const link = await getSignedUrl(
      new S3Client({
        region: cloud.env.AWS_REGION,
        endpoint: cloud.env.S3_ENDPOINT,
        forcePathStyle: true,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        credentials: {
          accessKeyId: cloud.env.AWS_ACCESS_KEY_ID,
          secretAccessKey: cloud.env.AWS_SECRET_ACCESS_KEY,
        },
      }),
      new PutObjectCommand({
        Bucket: cloud.env.UPLOADS_BUCKET,
        Key: 'u/file.mp3',
        ContentType: 'audio/mpeg',
      }),
      { expiresIn: 60 },
    );
    const upload = await fetch(link, {
      method: 'PUT',
      headers: { origin: cloud.url, 'content-type': 'audio/mpeg' },
      body: 'abc',
    });
    expect(upload.status).toBe(200);
    expect(upload.headers.get('access-control-expose-headers')).toMatch(/etag/i);
    expect(upload.headers.get('etag')).toEqual(expect.any(String));
    c.destroy();
    // The embedded music provider: its webhook keys, and its queue behind FAL_BASE_URL.
    expect(cloud.env.FAL_WEBHOOK_JWKS_URL).toBe(`${cloud.env.FAL_BASE_URL}/.well-known/jwks.json`);
    const jwks = (await (await fetch(cloud.env.FAL_WEBHOOK_JWKS_URL)).json()) as {
      keys: Array<{ kty: string; crv: string }>;
    };
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    const unknown = await fetch(
      `${cloud.env.FAL_BASE_URL}/queue.fal.run/fal-ai/ace-step/requests/none/status`,
      {
        headers: { authorization: `Key ${cloud.env.FAL_KEY}` },
      },
    );
    expect(unknown.status).toBe(404);

    // The Step Functions endpoint answers at the published URL.
    expect(cloud.env.STEPFUNCTIONS_ENDPOINT).toBe(`http://127.0.0.1:${stepFunctionsPort}`);
    const sfnCall = () =>
      fetch(cloud.env.STEPFUNCTIONS_ENDPOINT, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'AWSStepFunctions.ListStateMachines',
        },
        body: '{}',
      });
    expect((await sfnCall()).headers.get('x-amzn-errortype')).toBe('UnknownOperationException');

    // The Lambda endpoint runs the jobs function, asynchronously only.
    expect(cloud.env.LAMBDA_ENDPOINT).toBe(`http://127.0.0.1:${lambdaPort}`);
    const invoke = (type: string) =>
      fetch(`${cloud.env.LAMBDA_ENDPOINT}/2015-03-31/functions/${cloud.env.JOBS_FUNCTION_NAME}/invocations`, {
        method: 'POST',
        headers: { 'x-amz-invocation-type': type },
        body: '{}',
      });
    expect((await invoke('RequestResponse')).headers.get('x-amzn-errortype')).toBe(
      'InvalidParameterValueException',
    );

    await stopCleanly(cloud);
    await expect(fetch(cloud.env.FAL_WEBHOOK_JWKS_URL)).rejects.toThrow();
    await expect(sfnCall()).rejects.toThrow();
    await expect(invoke('Event')).rejects.toThrow();
  });

  it('binds the Step Functions endpoint itself when no port is configured', async () => {
    const cloud = await start(tempDir());

    const { port } = new URL(cloud.env.STEPFUNCTIONS_ENDPOINT);
    // Whatever the system handed out is what is published and served.
    const answer = await fetch(cloud.env.STEPFUNCTIONS_ENDPOINT, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'AWSStepFunctions.StartExecution',
      },
      body: JSON.stringify({ stateMachineArn: cloud.env.STATE_MACHINE_ARN, name: 'has space' }),
    });
    expect(Number(port)).toBeGreaterThan(0);
    expect(answer.headers.get('x-amzn-errortype')).toBe('InvalidName');
    await stopCleanly(cloud);
  });

  it('keeps data, pools and the admin across restarts', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    await writeMarkers(first);
    const firstJwks = await (await fetch(first.env.FAL_WEBHOOK_JWKS_URL)).json();
    await stopCleanly(first);

    const second = await start(dataDir);

    expect(await readMarkers(second)).toEqual({ item: { ...marker, value: 'kept' }, object: 'kept' });
    for (const name of [
      'USER_POOL_ID',
      'USER_POOL_CLIENT_ID',
      'ADMIN_POOL_ID',
      'ADMIN_POOL_CLIENT_ID',
    ] as const) {
      expect(second.env[name]).toBe(first.env[name]);
    }
    expect(second.admin).toEqual(first.admin);
    // The music provider keeps its webhook signing key in <dataDir>/music.
    const jwks = async (cloud: LocalCloud) => (await fetch(cloud.env.FAL_WEBHOOK_JWKS_URL)).json();
    expect(await jwks(second)).toEqual(firstJwks);
    const saved = JSON.parse(readFileSync(path.join(dataDir, 'local-cloud.json'), 'utf8')) as {
      admin: unknown;
    };
    expect(saved.admin).toEqual(first.admin);
    const c = clients(second.env);
    const signIn = await c.cognito.send(
      new AdminInitiateAuthCommand({
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        UserPoolId: second.env.ADMIN_POOL_ID,
        ClientId: second.env.ADMIN_POOL_CLIENT_ID,
        AuthParameters: { USERNAME: second.admin.username, PASSWORD: second.admin.password },
      }),
    );
    // The kept password is right: the admin pool asks for the second factor next (set up at the first sign-in).
    expect(signIn.ChallengeName).toBe('MFA_SETUP');
    c.destroy();
    await stopCleanly(second);
  });

  it('fails the generations a stopped cloud left pending or generating and gives their units back', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const userId = randomUUID();
    const generationsIn = (cloud: LocalCloud) => {
      const c = clients(cloud.env);
      const deps = {
        generations: dynamoGenerationStore(c.documents, cloud.env.TABLE_NAME),
        quota: dynamoQuotaStore(c.documents, cloud.env.TABLE_NAME),
        clock: { now: () => new Date() },
        newId: randomUUID,
        siteOrigin: cloud.env.PUBLIC_ORIGIN,
        plans: dynamoPlanRepository(c.documents, cloud.env.TABLE_NAME),
        // The models' settings as the local cloud keeps them (none saved: the defaults).
        modelSettings: { read: async () => undefined },
      };
      return { c, deps };
    };
    // What a run cut short by Ctrl-C leaves: one track queued, one at the provider, one done.
    const before = generationsIn(first);
    const user = aUser({ id: userId });
    await dynamoUserRepository(before.c.documents, first.env.TABLE_NAME).create(user);
    const request = {
      type: 'text-to-music',
      tags: 'rock',
      lyrics: '',
      duration: 30,
      visibility: 'public',
    } as const;
    const pending = await startGeneration(before.deps, user, undefined, request);
    const generating = await startGeneration(before.deps, user, undefined, request);
    await markGenerating(before.deps, generating.id, { falRequestId: 'req-cut-short' });
    const completed = await startGeneration(before.deps, user, undefined, request);
    await markCompleted(before.deps, completed.id, {
      audioUrl: `s3://${first.env.TRACKS_BUCKET}/tracks/${userId}/${completed.id}.wav`,
      duration: 30,
      seed: 7,
    });
    expect((await before.deps.quota.read(userId))?.used).toBe(3);
    before.c.destroy();
    await stopCleanly(first);

    const second = await start(dataDir);

    const after = generationsIn(second);
    const status = async (id: string) => (await after.deps.generations.get(id))?.status;
    expect(await status(pending.id)).toBe('failed');
    expect(await status(generating.id)).toBe('failed');
    expect(await status(completed.id)).toBe('completed');
    expect((await after.deps.quota.read(userId))?.used).toBe(1);
    after.c.destroy();
    // A second restart finds nothing left to fail and refunds nothing twice.
    await stopCleanly(second);
    const third = await start(dataDir);
    const again = generationsIn(third);
    expect((await again.deps.quota.read(userId))?.used).toBe(1);
    again.c.destroy();
    await stopCleanly(third);
  });

  it('starts empty with fresh: true', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    await writeMarkers(first);
    await stopCleanly(first);

    const second = await start(dataDir, true);

    expect(await readMarkers(second)).toEqual({ item: undefined, object: undefined });
    expect(second.env.USER_POOL_ID).not.toBe(first.env.USER_POOL_ID);
    expect(second.env.ADMIN_POOL_ID).not.toBe(first.env.ADMIN_POOL_ID);
    expect(second.admin.password).not.toBe(first.admin.password);
    await stopCleanly(second);
  });

  it('leaves no emulator running when its process is killed outright', async () => {
    // Persisted to a directory of ours: a killed cloud cannot remove its temporary one.
    const cloud = await startLocalCloudProcess({
      port: 0,
      dataDir: tempDir(),
      fresh: false,
      persist: true,
      web: 'none',
      quiet: true,
    });
    clouds.push(cloud);
    const [parent, ...emulators] = cloud.pids as [number, ...number[]];
    expect((await fetch(`${cloud.url}/api/plans`)).status).toBe(200);
    const started = descendants(parent);
    expect(started).toEqual(expect.arrayContaining(emulators));

    process.kill(parent, 'SIGKILL');

    expect(await waitForExit([parent, ...started])).toEqual([]);
  });

  it('refuses a second cloud in the same process', async () => {
    await start(tempDir());

    await expect(start(tempDir())).rejects.toThrow(/already running in this process/);
  });
});
