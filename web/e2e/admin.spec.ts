import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dynamoGenerationStore } from '../../functions/src/adapters/dynamo/generation-store';
import { keys } from '../../functions/src/data/keys';
import type { Generation } from '../../functions/src/domain/tracks/track';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { answerSecondFactor, journeyAdmin, signIn, signInAdmin, toast, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: cloudEnv.AWS_REGION as string,
    endpoint: cloudEnv.DYNAMODB_ENDPOINT as string,
    credentials: {
      accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID as string,
      secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY as string,
    },
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);
const tableName = cloudEnv.TABLE_NAME as string;
const generations = dynamoGenerationStore(documents, tableName);
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** An administrator of this journey's own (another journey changes the first admin's password). */
const admin = { username: `ops-${randomUUID().slice(0, 8)}`, password: 'journey admin 1' };

beforeAll(async () => {
  await journeyAdmin(cloudEnv, admin);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  documents.destroy();
});

const password = 'admin journey 1';
const tag = randomUUID().slice(0, 6);

/** A finished public track of `userId`, as the workflow leaves it. */
async function publicTrack(userId: string, title: string): Promise<Generation> {
  const now = new Date().toISOString();
  const generation: Generation = {
    id: randomUUID(),
    userId,
    type: 'text-to-music',
    title,
    tags: `e2e-${tag}, ambient`,
    lyrics: 'Walking down the harbour at night, the lights are low and the water is bright',
    duration: 12,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: `${baseUrl}/missing-${tag}.wav`,
    seed: 1,
    falRequestId: null,
    createdAt: now,
    updatedAt: now,
  };
  await generations.create(generation);
  return generation;
}

/** What the table holds, counted item by item: what the dashboard must show. */
async function recount() {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documents.send(
      new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  const tracks = items.filter((i) => i.entity === 'generation');
  const today = new Date().toISOString().slice(0, 10);
  return {
    'Total Users': items.filter((i) => i.entity === 'user').length,
    'Total Generations': tracks.length,
    'Public Tracks': tracks.filter((t) => t.visibility === 'public').length,
    'Private Tracks': tracks.filter((t) => t.visibility === 'private').length,
    'New Users Today': items.filter((i) => i.entity === 'user' && String(i.createdAt).startsWith(today))
      .length,
  };
}

const inGallery = async (id: string) =>
  ((await (await fetch(`${baseUrl}/api/public-tracks`)).json()) as { id: string }[]).some((t) => t.id === id);

/** The number on a stat card. */
const stat = async (label: string) =>
  Number(
    (
      await page.getByText(label, { exact: true }).locator('xpath=following-sibling::p').textContent()
    )?.replace(/,/g, ''),
  );

describe('an administrator runs the site', () => {
  it('signs in, checks the dashboard, helps users, changes plans, moderates tracks and sets keys', async () => {
    const helped = { email: `helped-${tag}@example.com`, password };
    const helpedId = await verifiedUser(baseUrl, { ...helped, firstName: 'Hana', lastName: `Help${tag}` });
    const leaving = { email: `leaving-${tag}@example.com`, password };
    const leavingId = await verifiedUser(baseUrl, { ...leaving, firstName: 'Lee', lastName: `Leave${tag}` });
    const moderated = await publicTrack(helpedId, `Harbour ${tag}`);
    const doomed = await publicTrack(helpedId, `Doomed ${tag}`);
    const leavingTrack = await publicTrack(leavingId, `Farewell ${tag}`);

    // Sign in.
    await page.goto(`${baseUrl}/admin/login`);
    const login = page.getByRole('form', { name: 'Admin sign in' });
    await login.waitFor();
    await expectNoSeriousViolations(page, 'admin sign in');
    await login.getByLabel('Username').fill(admin.username);
    await login.getByLabel('Password', { exact: true }).fill(admin.password);
    await login.getByRole('button', { name: 'Sign In' }).click();
    // The first sign-in sets up the authenticator: keyboard and screen reader alike.
    await answerSecondFactor(page, baseUrl, admin.username, async (step) => {
      expect(step).toBe('setup');
      await page.getByRole('img', { name: 'QR code of your authenticator key' }).waitFor();
      await expectNoSeriousViolations(page, 'admin sign in, authenticator setup');
    });

    // The dashboard's counters match the data.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByText(/UTC day/).waitFor();
    const { 'New Users Today': newToday, ...totals } = await recount();
    for (const [label, value] of Object.entries(totals))
      expect([label, await stat(label)]).toEqual([label, value]);
    // Accounts made today and deleted since still count as made today.
    expect(await stat('New Users Today')).toBeGreaterThanOrEqual(newToday);
    await expectNoSeriousViolations(page, 'admin dashboard');

    // Users: find, edit, toggle verification, assign Premium.
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'User Management' })
      .click();
    await page.getByLabel('Search users by name or email').fill(`help${tag}`);
    const row = page.getByRole('row').filter({ hasText: helped.email });
    await row.waitFor();
    // The search runs after a pause in typing; the unfiltered list shows the row meanwhile.
    await expect.poll(() => page.getByRole('row').count(), { timeout: 15_000 }).toBe(2);
    await expectNoSeriousViolations(page, 'admin users');
    await row.getByRole('button', { name: /^Edit / }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByLabel('First Name').waitFor();
    await expectNoSeriousViolations(page, 'admin edit user dialog');
    await edit.getByLabel('First Name').fill('Hannah');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'User Updated').waitFor();
    await page.getByRole('row').filter({ hasText: 'Hannah' }).waitFor();

    const verified = row.getByRole('switch');
    await verified.click();
    await toast(page, 'Email Status Updated').waitFor();
    await row.getByText('Unverified', { exact: true }).waitFor();
    await verified.click();
    await row.getByText('Verified', { exact: true }).waitFor();

    await row.getByRole('button', { name: /^Manage plan/ }).click();
    const planDialog = page.getByRole('dialog', { name: 'Manage Plan' });
    await planDialog.getByLabel('Plan', { exact: true }).waitFor();
    await expectNoSeriousViolations(page, 'admin manage plan dialog');
    await planDialog.getByLabel('Plan', { exact: true }).selectOption({ label: 'Premium' });
    await planDialog.getByRole('button', { name: 'Update Plan' }).click();
    await toast(page, 'Plan Updated').waitFor();
    await row.getByText('0/100').waitFor();
    const userPage = await (await browser.newContext()).newPage();
    await signIn(userPage, baseUrl, helped.email, helped.password);
    const me = await userPage.evaluate(async () => (await fetch('/api/auth/user')).json());
    expect(me.entitlements).toMatchObject({ weeklyLimit: 100, paid: true });
    await userPage.context().close();

    // Plans: a new plan shows on Pricing at once; deleting it takes it away again.
    const planName = `Studio ${tag}`;
    await page.getByRole('link', { name: 'Subscription Plans' }).click();
    await page.getByRole('article', { name: 'Basic' }).waitFor();
    await expectNoSeriousViolations(page, 'admin plans');
    await page.getByRole('button', { name: 'Create Plan' }).first().click();
    const planForm = page.getByRole('dialog', { name: 'Create Plan' });
    await planForm.getByLabel('Name').waitFor();
    await expectNoSeriousViolations(page, 'admin create plan dialog');
    await planForm.getByLabel('Name').fill(planName);
    await planForm.getByLabel('Monthly Price ($)').fill('12.50');
    await planForm.getByLabel('Features (one per line)').fill('Stems\nPriority queue');
    await planForm.getByRole('button', { name: 'Create Plan' }).click();
    await toast(page, 'Plan Created').waitFor();
    await page.getByRole('article', { name: planName }).waitFor();
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}/pricing`);
    await visitor.getByRole('article', { name: planName }).waitFor();

    // Tracks: hide one from the gallery (gone from Home), rename one, delete one.
    await page.getByRole('link', { name: 'Music Tracks' }).click();
    await page.getByLabel('Search tracks by title or tags').fill(`e2e-${tag}`);
    const harbour = page.getByRole('article', { name: moderated.title ?? '' });
    await harbour.waitFor();
    await expectNoSeriousViolations(page, 'admin tracks');
    expect(await inGallery(moderated.id)).toBe(true);
    await page.getByRole('switch', { name: `Show ${moderated.title} in Gallery` }).click();
    await toast(page, 'Track Updated').waitFor();
    await expect.poll(() => inGallery(moderated.id)).toBe(false);
    await visitor.goto(baseUrl);
    await visitor.getByRole('heading', { name: 'Create Music with AI' }).waitFor();
    expect(await visitor.getByText(moderated.title ?? '', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: `${doomed.title}, edit title` }).click();
    await page.getByLabel('Track title').fill(`Renamed ${tag}`);
    await page.getByLabel('Track title').press('Enter');
    await page.getByRole('button', { name: `Renamed ${tag}, edit title` }).waitFor();
    await page.getByRole('button', { name: `Delete Renamed ${tag}` }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete this track?' })
      .getByRole('button', { name: 'Delete Track' })
      .click();
    await toast(page, 'Track Deleted').waitFor();
    await expect.poll(() => page.getByRole('article', { name: `Renamed ${tag}` }).count()).toBe(0);

    // Settings: a setting and a secret (masked after a reload), and the webhook address copied.
    await page.getByRole('link', { name: 'Site Settings' }).click();
    const siteName = page.getByRole('form', { name: 'Site Description' });
    await siteName.waitFor();
    await expectNoSeriousViolations(page, 'admin settings, General');
    await siteName.getByLabel('Site Description').fill(`Music for everyone ${tag}`);
    await siteName.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Setting Saved').waitFor();
    await page.getByRole('tab', { name: 'Stripe' }).click();
    const falKey = page.getByRole('form', { name: 'fal.ai API Key' });
    await falKey.waitFor();
    await expectNoSeriousViolations(page, 'admin settings, Stripe');
    await falKey.getByLabel('fal.ai API Key', { exact: true }).fill(`fal-secret-${tag}`);
    await falKey.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Setting Saved').waitFor();
    await page.reload();
    const reloaded = page.getByRole('form', { name: 'fal.ai API Key' });
    await reloaded.getByText(/^Set/).waitFor();
    expect(await reloaded.getByLabel('fal.ai API Key', { exact: true }).inputValue()).toBe('');
    expect(await reloaded.getByLabel('fal.ai API Key', { exact: true }).getAttribute('type')).toBe(
      'password',
    );
    expect(await page.content()).not.toContain(`fal-secret-${tag}`);
    await page.getByRole('tab', { name: 'General' }).click();
    expect(await page.getByRole('textbox', { name: 'Site Description' }).inputValue()).toBe(
      `Music for everyone ${tag}`,
    );

    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await expectNoSeriousViolations(page, 'admin settings, Webhooks');
    await page.getByRole('button', { name: 'Copy' }).click();
    await toast(page, 'Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseUrl}/api/webhooks/stripe`);

    // Delete a user: their public track leaves the gallery.
    expect(await inGallery(leavingTrack.id)).toBe(true);
    await page.getByRole('link', { name: 'User Management' }).click();
    await page.getByLabel('Search users by name or email').fill(leaving.email);
    await page.getByRole('button', { name: `Delete Lee Leave${tag}` }).click();
    await page.getByRole('alertdialog', { name: 'Delete this user?' }).waitFor();
    await expectNoSeriousViolations(page, 'admin delete user dialog');
    await page
      .getByRole('alertdialog', { name: 'Delete this user?' })
      .getByRole('button', { name: 'Delete User' })
      .click();
    await toast(page, 'User Deleted').waitFor();
    await page.getByText('No users found').waitFor();
    expect(await inGallery(leavingTrack.id)).toBe(false);

    // Leave the site as the other journeys expect it: no extra plan, no fal key set.
    await page.getByRole('link', { name: 'Subscription Plans' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete ${planName}` }).click();
    await toast(page, 'Plan Deleted').waitFor();
    await visitor.goto(`${baseUrl}/pricing`);
    await visitor.getByRole('article', { name: 'Basic' }).waitFor();
    expect(await visitor.getByRole('article', { name: planName }).count()).toBe(0);
    await visitor.context().close();
    await page.getByRole('link', { name: 'Site Settings' }).click();
    await page.getByRole('tab', { name: 'Stripe' }).click();
    await page.getByRole('form', { name: 'fal.ai API Key' }).getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Setting Saved').waitFor();

    // The dashboard lists what was done.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const activity = page.getByRole('list', { name: 'Recent admin activity' });
    await activity.getByText(`Deleted ${leaving.email} and their data`).waitFor();
    expect(await activity.textContent()).not.toContain(`fal-secret-${tag}`);
  });
});

describe('the site name', () => {
  it('is what the header and the tab title say once an administrator saves it', async () => {
    const key = keys.setting('site_name');
    const before = (await documents.send(new GetCommand({ TableName: tableName, Key: key }))).Item;
    const name = `Harbour Radio ${tag}`;
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const adminPage = await adminContext.newPage();
      await signInAdmin(adminPage, baseUrl, admin);

      await adminPage.goto(`${baseUrl}/admin/settings?tab=general`);
      const form = adminPage.getByRole('form', { name: 'Site Name' });
      await form.getByLabel('Site Name').fill(name);
      await form.getByRole('button', { name: 'Save' }).click();
      await toast(adminPage, 'Setting Saved').waitFor();
      // The admin area takes the new name at once.
      await adminPage
        .getByRole('complementary', { name: 'Admin sidebar' })
        .getByText(`${name} Admin`)
        .waitFor();

      const visitor = await visitorContext.newPage();
      await visitor.goto(baseUrl);
      await visitor.getByRole('heading', { name: 'Create Music with AI' }).waitFor();
      const banner = visitor.getByRole('banner').first();
      await banner.getByRole('link', { name, exact: true }).waitFor();
      expect(await visitor.title()).toBe(`${name}: Create Music with AI`);
      expect(await banner.textContent()).not.toContain('Tunesmith');
      await visitor
        .getByRole('contentinfo')
        .getByText(`© ${new Date().getFullYear()} ${name}. All rights reserved.`)
        .waitFor();

      await visitor.getByRole('banner').first().getByRole('link', { name: 'Pricing' }).click();
      await visitor.waitForURL(`${baseUrl}/pricing`);
      await expect.poll(() => visitor.title()).toBe(`Pricing | ${name}`);
      await expectNoSeriousViolations(visitor, 'pricing under a new site name');
    } finally {
      // Leave the name as the other journeys expect it.
      if (before) await documents.send(new PutCommand({ TableName: tableName, Item: before }));
      else await documents.send(new DeleteCommand({ TableName: tableName, Key: key }));
      await adminContext.close();
      await visitorContext.close();
    }
  });
});
