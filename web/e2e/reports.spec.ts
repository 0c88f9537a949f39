import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dynamoGenerationStore } from '../../functions/src/adapters/dynamo/generation-store';
import type { Generation } from '../../functions/src/domain/tracks/track';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { journeyAdmin, signIn, signInAdmin, toast, verifiedUser } from './people';

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
const generations = dynamoGenerationStore(documents, cloudEnv.TABLE_NAME as string);
const tag = randomUUID().slice(0, 6);
const password = 'report journey 1';
const admin = { username: `mod-${tag}`, password: 'journey admin 1' };
let browser: Browser;

beforeAll(async () => {
  await journeyAdmin(cloudEnv, admin);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  documents.destroy();
});

/** A finished public track of `userId`, as the workflow leaves it. */
async function publicTrack(userId: string, title: string): Promise<Generation> {
  const now = new Date().toISOString();
  const generation: Generation = {
    id: randomUUID(),
    userId,
    type: 'text-to-music',
    title,
    tags: `e2e-${tag}, ambient`,
    lyrics: '',
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

/** A visitor's home page, once its gallery has answered (it lists `keeper`): whether it lists the title. */
async function galleryShows(page: Page, title: string, keeper: string): Promise<boolean> {
  await page.goto(`${baseUrl}/`);
  await page.getByText(keeper, { exact: true }).first().waitFor();
  return (await page.getByText(title, { exact: true }).count()) > 0;
}

describe('reporting a track', () => {
  it('a user reports a track from its menu, an administrator hides it, and the gallery no longer shows it', async () => {
    const ownerId = await verifiedUser(baseUrl, { email: `owner-${tag}@example.com`, password });
    const reporter = { email: `reporter-${tag}@example.com`, password };
    await verifiedUser(baseUrl, reporter);
    const title = `Harbour Lights ${tag}`;
    // Another of the owner's tracks stays listed: the gallery shows it whatever happens to the reported one.
    const keeper = `Quiet Shore ${tag}`;
    await publicTrack(ownerId, keeper);
    const track = await publicTrack(ownerId, title);

    const visitor = await (await browser.newContext()).newPage();
    expect(await galleryShows(visitor, title, keeper)).toBe(true);

    // The reporter opens the track's More menu and reports it.
    const reporterPage = await (await browser.newContext()).newPage();
    await signIn(reporterPage, baseUrl, reporter.email, reporter.password);
    await reporterPage.goto(`${baseUrl}/track/${track.id}`);
    await reporterPage.getByRole('heading', { level: 1, name: title }).waitFor();
    await reporterPage.getByRole('button', { name: 'More' }).click();
    await reporterPage.getByRole('menuitem', { name: 'Report track' }).click();
    const dialog = reporterPage.getByRole('dialog', { name: `Report "${title}"` });
    await dialog.getByRole('radio', { name: 'Spam or misleading' }).waitFor();
    await expectNoSeriousViolations(reporterPage, 'report dialog');
    await dialog.getByRole('radio', { name: 'Spam or misleading' }).check();
    await dialog.getByLabel('Details (optional)').fill('Advertises a shop in every line');
    await dialog.getByRole('button', { name: 'Send Report' }).click();
    await toast(reporterPage, 'Thanks. An administrator will look at your report.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The administrator finds it on the Reports page and hides the track.
    const adminPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInAdmin(adminPage, baseUrl, admin);
    await adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Reports' }).click();
    const report = adminPage.getByRole('article', { name: `Track "${title}"` });
    await report.waitFor();
    await report.getByText('Advertises a shop in every line').waitFor();
    await expectNoSeriousViolations(adminPage, 'admin reports');
    await report.getByRole('button', { name: 'Hide track' }).click();
    await toast(adminPage, `Track "${title}" is hidden.`).waitFor();
    await report.getByRole('button', { name: 'Show track again' }).waitFor();

    // Gone from the gallery, and its page is not found for everyone but its owner.
    expect(await galleryShows(visitor, title, keeper)).toBe(false);
    await visitor.goto(`${baseUrl}/track/${track.id}`);
    await visitor.getByRole('heading', { level: 1, name: 'Track Not Found' }).waitFor();
    await reporterPage.goto(`${baseUrl}/track/${track.id}`);
    await reporterPage.getByRole('heading', { level: 1, name: 'Track Not Found' }).waitFor();

    await Promise.all([
      visitor.context().close(),
      reporterPage.context().close(),
      adminPage.context().close(),
    ]);
  });
});
