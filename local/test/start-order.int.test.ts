import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// The start's steps are printed only when this is set as its modules load (start-timings.ts).
vi.hoisted(() => {
  process.env.TUNESMITH_START_TIMINGS = '1';
});

const { startLocalCloud } = await import('../src/cloud');
const { startLocalCloudProcess } = await import('../src/cloud-process');
type LocalCloud = Awaited<ReturnType<typeof startLocalCloud>>;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-start-order-'));
let running: LocalCloud | undefined;
/** A cloud on the one data directory, kept from one start to the next. */
const keptCloud = { port: 0, dataDir, fresh: false, persist: true, web: 'none', quiet: true } as const;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts the cloud on the kept data directory, noting the start's steps in the order they finished. */
async function start(): Promise<{ cloud: LocalCloud; steps: string[] }> {
  const steps: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
    const step = /^\[start\] (.+) \d+\n$/.exec(String(chunk));
    if (step?.[1]) {
      steps.push(step[1]);
      return true;
    }
    return write(chunk, ...(rest as []));
  });
  try {
    running = await startLocalCloud(keptCloud);
    const cloud = running;
    // Until both deferred emulators have answered (a request to either's address waits for it).
    await fetch(`${cloud.env.SES_ENDPOINT}/health-check`);
    await fetch(`${cloud.env.COGNITO_ENDPOINT}/health`);
    await vi.waitFor(() => expect(steps).toEqual(expect.arrayContaining(['ses answers', 'cognito answers'])));
    return { cloud, steps };
  } finally {
    spy.mockRestore();
  }
}

const before = (steps: string[], first: string, then: string) => steps.indexOf(first) < steps.indexOf(then);

async function adminLogin(cloud: LocalCloud) {
  const response = await fetch(`${cloud.url}/api/admin/login`, {
    method: 'POST',
    headers: { origin: cloud.url, 'content-type': 'application/json' },
    body: JSON.stringify({ username: cloud.admin.username, password: cloud.admin.password }),
  });
  return response.status;
}

describe('the order of a start', () => {
  it('boots SES after the routes open, and cognito-local too on a later start whose pools are kept', async () => {
    // A first start makes the pools and the admin: cognito-local is needed before the routes open.
    const first = await start();
    expect(before(first.steps, 'cognito answers', 'routes open')).toBe(true);
    expect(before(first.steps, 'routes open', 'ses answers')).toBe(true);
    const admin = first.cloud.admin;
    await running?.stop();
    running = undefined;

    const later = await start();

    expect(before(later.steps, 'routes open', 'cognito answers')).toBe(true);
    expect(before(later.steps, 'routes open', 'ses answers')).toBe(true);
    expect(later.cloud.admin).toEqual(admin);
    expect(later.cloud.env.USER_POOL_ID).toBe(first.cloud.env.USER_POOL_ID);
  });

  it('answers a sign-in and sends mail made the moment a later start answers, while those two boot', async () => {
    // The first test left kept pools and an admin: this start defers both. In a process of its
    // own: this one's handlers serve the first cloud they served.
    running = await startLocalCloudProcess(keptCloud);
    const cloud = running;
    // When it answered, neither had started: its own process and DynamoDB Local's guard only.
    expect(cloud.pids).toHaveLength(2);
    const ses = new SESv2Client({
      region: cloud.env.AWS_REGION,
      endpoint: cloud.env.SES_ENDPOINT,
      credentials: {
        accessKeyId: cloud.env.AWS_ACCESS_KEY_ID,
        secretAccessKey: cloud.env.AWS_SECRET_ACCESS_KEY,
      },
    });

    const [signIn] = await Promise.all([
      adminLogin(cloud),
      ses.send(
        new SendEmailCommand({
          FromEmailAddress: cloud.env.MAIL_FROM,
          Destination: { ToAddresses: ['early@example.test'] },
          Content: { Simple: { Subject: { Data: 'Early' }, Body: { Text: { Data: 'Sent at once' } } } },
        }),
      ),
    ]);
    ses.destroy();

    expect(signIn).toBe(200);
    const store = (await (await fetch(`${cloud.env.SES_ENDPOINT}/store`)).json()) as {
      emails: { subject: string }[];
    };
    expect(store.emails.map((email) => email.subject)).toEqual(['Early']);
  });
});
