import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  developerMessages,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
} from '@tunesmith/shared/developer-api';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { journeyAdmin, signIn, signInAdminByApi, toast, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
const tag = Date.now().toString(36);
const password = 'developer keys 1';

/** One request the test's webhook receiver got. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let browser: Browser;
/** Each developer's own browser session. */
const contexts: BrowserContext[] = [];
/** A webhook receiver on loopback, as a developer runs one beside `npm start`; it answers 204. */
let receiver: Server;
const received: Received[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** `GET /api/v1/tracks` with a key, as a developer's code calls it. */
const listTracks = (key: string) =>
  fetch(`${baseUrl}/api/v1/tracks`, {
    headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
  });

/** A signed-in user on the profile, at the Developers section. */
async function developerOnProfile(name: string, before?: (userId: string) => Promise<void>): Promise<Page> {
  const email = `developers-${name}-${tag}@example.com`;
  const userId = await verifiedUser(baseUrl, { email, password });
  await before?.(userId);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, baseUrl, email, password);
  await page.goto(`${baseUrl}/profile`);
  await page.getByRole('region', { name: 'Developers' }).waitFor();
  return page;
}

describe('Profile → Developers', () => {
  it('creates a key shown once, which calls the API until it is revoked', async () => {
    const page = await developerOnProfile('keys');
    const section = page.getByRole('region', { name: 'Developers' });
    expect(await section.getByRole('link', { name: 'Read the API documentation' }).getAttribute('href')).toBe(
      '/developers',
    );
    const keys = page.getByRole('region', { name: 'API Keys' });
    await keys.getByText('You have no API keys yet.').waitFor();
    await expectNoSeriousViolations(page, 'Profile → Developers, no keys');

    await keys.getByLabel('Key name').fill('Release pipeline');
    await keys.getByRole('button', { name: 'Create Key' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Your new API key' });
    const shown = dialog.getByLabel('API key');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^ts_test_[A-Za-z0-9]{32}$/);
    await dialog.getByText(/You will not see this key again/).waitFor();
    await expectNoSeriousViolations(page, 'the new key dialog');
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Listed by its prefix only; the key itself is nowhere on the page any more.
    const item = keys.getByRole('listitem', { name: 'Release pipeline' });
    await item.getByText(`${key.slice(0, 12)}…`).waitFor();
    await item.getByText(/generate, read · Created .* · Never used/).waitFor();
    expect(await page.content()).not.toContain(key);

    const answer = await listTracks(key);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ tracks: [], next: null });
    // The use shows on the profile once it is read again.
    await page.reload();
    await page
      .getByRole('listitem', { name: 'Release pipeline' })
      .getByText(/· Used /)
      .waitFor();

    const revoke = page
      .getByRole('region', { name: 'API Keys' })
      .getByRole('button', { name: 'Revoke Release pipeline' });
    await revoke.click();
    const confirm = page.getByRole('alertdialog', { name: 'Revoke this API key?' });
    await confirm.getByRole('button', { name: 'Revoke Key' }).waitFor();
    await expectNoSeriousViolations(page, 'the revoke confirmation');
    await confirm.getByRole('button', { name: 'Revoke Key' }).click();
    await toast(page, 'Key revoked').waitFor();
    await page.getByRole('region', { name: 'API Keys' }).getByText('You have no API keys yet.').waitFor();

    const refused = await listTracks(key);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    await page.close();
  });

  it('adds a webhook endpoint with its secret shown once, sends a signed test event and logs it', async () => {
    const page = await developerOnProfile('webhooks');
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByText('You have no webhook endpoints yet.').waitFor();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tunesmith`;

    await webhooks.getByLabel('Endpoint URL').fill(url);
    await webhooks.getByRole('checkbox', { name: /stems\.ready/ }).uncheck();
    await webhooks.getByRole('button', { name: 'Add Endpoint' }).click();
    const dialog = page.getByRole('alertdialog', { name: "Your endpoint's signing secret" });
    const shown = dialog.getByLabel('Signing secret');
    await shown.waitFor();
    const secret = await shown.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    await dialog.getByText(/You will not see this secret again/).waitFor();
    await expectNoSeriousViolations(page, 'the signing secret dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    const endpoint = webhooks.getByRole('listitem', { name: url });
    await endpoint.getByText(/^track\.completed, track\.failed · Added /).waitFor();
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await toast(page, 'Test event delivered').waitFor({ timeout: 20_000 });
    await toast(page, 'Your endpoint answered 204.').waitFor();

    // The log opens, and shows the test event delivered once the receiver has answered.
    await endpoint
      .getByRole('listitem', { name: `${WEBHOOK_TEST_EVENT}, Delivered` })
      .waitFor({ timeout: 20_000 });
    const delivered = received.at(-1);
    expect(delivered).toBeDefined();
    const signature = String(delivered?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature) ?? [];
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${delivered?.body}`).digest('hex'));
    expect(JSON.parse(delivered?.body ?? '{}')).toMatchObject({ type: WEBHOOK_TEST_EVENT });
    await expectNoSeriousViolations(page, 'an endpoint with its deliveries');

    await webhooks.getByRole('button', { name: `Delete ${url}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this endpoint?' });
    await confirm.getByRole('button', { name: 'Delete Endpoint' }).click();
    await toast(page, 'Endpoint deleted').waitFor();
    await webhooks.getByText('You have no webhook endpoints yet.').waitFor();
    await page.close();
  });

  it("refuses the keys of a plan whose API access an administrator turned off, in the server's words", async () => {
    const admin = { username: `developers-${randomUUID().slice(0, 8)}`, password: 'developers admin 1' };
    await journeyAdmin(cloudEnv, admin);
    const adminSession = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(adminSession);
    await signInAdminByApi(adminSession, baseUrl, admin);

    // The administrator makes a plan without API access on the Plans form.
    const planName = `No API ${tag}`;
    const adminPage = await adminSession.newPage();
    await adminPage.goto(`${baseUrl}/admin/plans`);
    await adminPage.getByRole('button', { name: 'Create Plan' }).first().click();
    const form = adminPage.getByRole('dialog', { name: 'Create Plan' });
    await form.getByLabel('Name').fill(planName);
    // A paid plan: a plan at no price given to someone leaves them on Free.
    await form.getByLabel('Monthly Price ($)').fill('12.50');
    const apiAccess = form.getByRole('switch', { name: 'API access' });
    expect(await apiAccess.getAttribute('aria-checked')).toBe('true');
    await apiAccess.click();
    await expectNoSeriousViolations(adminPage, 'the plan form with API access off');
    await form.getByRole('button', { name: 'Create Plan' }).click();
    await toast(adminPage, 'Plan Created').waitFor();
    const card = adminPage.getByRole('article', { name: planName });
    await card.getByText('Not included').waitFor();
    const plans = (await (await adminSession.request.get(`${baseUrl}/api/admin/plans`)).json()) as Array<{
      id: string;
      name: string;
      apiAccess: boolean;
    }>;
    const plan = plans.find((p) => p.name === planName);
    expect(plan?.apiAccess).toBe(false);

    // A user on that plan still manages keys (the server decides), and a call with one is refused.
    const page = await developerOnProfile('no-access', async (userId) => {
      const granted = await adminSession.request.put(`${baseUrl}/api/admin/regular-users/${userId}/plan`, {
        data: { planId: plan?.id, status: 'active' },
        headers: { origin: baseUrl },
      });
      expect(granted.status()).toBe(200);
    });
    const keys = page.getByRole('region', { name: 'API Keys' });
    await keys.getByLabel('Key name').fill('Refused');
    await keys.getByRole('button', { name: 'Create Key' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Your new API key' });
    const key = await dialog.getByLabel('API key').inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();

    const refused = await listTracks(key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { code: 'forbidden', message: developerMessages.noApiAccess },
    });
    await page.close();
    await adminPage.close();
  });
});
