import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dynamoGenerationStore } from '../../functions/src/adapters/dynamo/generation-store';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
const base = new DynamoDBClient({
  region: cloudEnv.AWS_REGION,
  endpoint: cloudEnv.DYNAMODB_ENDPOINT,
  credentials: {
    accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID ?? 'local',
    secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY ?? 'local',
  },
});
const generations = dynamoGenerationStore(
  DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }),
  cloudEnv.TABLE_NAME as string,
);
const tag = Date.now().toString(36);
const password = 'creators journey 1';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  base.destroy();
});

/** A signed-in person in a browser of their own; returns the page and their id. */
async function person(name: string): Promise<{ page: Page; id: string }> {
  const email = `creators-${name}-${tag}@example.com`;
  const id = await verifiedUser(baseUrl, { email, password });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, baseUrl, email, password);
  return { page, id };
}

/** A finished public track of `userId`, as the workflow leaves one (written straight to the table). */
async function publicTrack(userId: string, title: string): Promise<void> {
  const at = new Date().toISOString();
  await generations.create({
    id: randomUUID(),
    userId,
    type: 'text-to-music',
    title,
    tags: 'synthwave',
    lyrics: '',
    duration: 30,
    status: 'completed',
    visibility: 'public',
    showInGallery: true,
    inputAudioUrl: null,
    audioUrl: null,
    seed: 1,
    falRequestId: null,
    createdAt: at,
    updatedAt: at,
  });
}

describe('creators and following', () => {
  it('a creator chooses a handle; another user follows them and sees their new track in the feed', async () => {
    const handle = `nina-${tag}`;
    const creator = await person('creator');
    await creator.page.goto(`${baseUrl}/profile`);
    const form = creator.page.getByRole('form', { name: 'Public profile' });
    await form.getByRole('textbox', { name: 'Handle' }).fill(handle);
    await form.getByRole('textbox', { name: 'Display name' }).fill('Nina S');
    await form.getByRole('textbox', { name: 'Bio (optional)' }).fill('Piano and voice');
    expect(await form.getByText(`/@${handle}`).count()).toBe(1);
    await form.getByRole('button', { name: 'Go public' }).click();
    const view = form.getByRole('link', { name: 'View your page' });
    await view.waitFor();
    expect(await view.getAttribute('href')).toBe(`/@${handle}`);

    const fan = await person('fan');
    // A fresh load of /@handle: the front door answers the app for it.
    await fan.page.goto(`${baseUrl}/@${handle}`);
    await fan.page.getByRole('heading', { level: 1, name: 'Nina S' }).waitFor();
    expect(await fan.page.getByText('Piano and voice').count()).toBe(1);
    expect(await fan.page.getByText('No public tracks yet.').count()).toBe(1);
    await expectNoSeriousViolations(fan.page, `/@${handle}`);
    const follow = fan.page.getByRole('button', { name: 'Follow', exact: true });
    expect(await follow.getAttribute('aria-pressed')).toBe('false');
    await follow.click();
    const following = fan.page.getByRole('button', { name: 'Following' });
    await following.waitFor();
    expect(await following.getAttribute('aria-pressed')).toBe('true');
    await fan.page.getByText('1 follower', { exact: true }).waitFor();

    await fan.page.goto(`${baseUrl}/following`);
    await fan.page.getByText('Follow creators to see their new tracks here.').waitFor();
    await publicTrack(creator.id, `Evening ${tag}`);
    await fan.page.reload();
    const card = fan.page.getByRole('listitem').filter({ hasText: `Evening ${tag}` });
    await card.waitFor();
    expect(await card.getByRole('link', { name: 'Nina S' }).getAttribute('href')).toBe(`/@${handle}`);
    await expectNoSeriousViolations(fan.page, '/following');

    // An unknown handle is a page of its own, not an error.
    await fan.page.goto(`${baseUrl}/@nobody-${tag}`);
    await fan.page.getByRole('heading', { level: 1, name: 'Creator not found' }).waitFor();
  });
});
