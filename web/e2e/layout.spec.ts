import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dynamoGenerationStore } from '../../functions/src/adapters/dynamo/generation-store';
import type { Generation } from '../../functions/src/domain/tracks/track';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { journeyAdmin, signIn, signInAdmin, toast, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
const credentials = {
  accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID as string,
  secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY as string,
};
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: cloudEnv.AWS_REGION as string,
    endpoint: cloudEnv.DYNAMODB_ENDPOINT as string,
    credentials,
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);
const tableName = cloudEnv.TABLE_NAME as string;

/** A phone: the width the issue was found at. */
const PHONE = { width: 390, height: 844 };

const tag = randomUUID().slice(0, 6);
const password = 'narrow screen 1';
/** 100 characters without a space: the longest title a track may have. */
const longTitle = `Nocturne${tag}`.padEnd(100, 'x');
/** A first name of 100 characters and an address of 150, neither with a space. */
const person = {
  firstName: `Maximiliana${tag}`.padEnd(100, 'a'),
  lastName: `Q${tag}`,
  email: `${'longaddress'.repeat(5)}-${tag}@${'averyveryverylongdomainname'.repeat(3)}.example.com`,
};
const admin = { username: `narrow-${tag}`, password: 'narrow admin 1' };

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  await journeyAdmin(cloudEnv, admin);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: PHONE });
});

afterAll(async () => {
  await browser?.close();
  documents.destroy();
});

/** A finished public track of `userId` with the longest title, as the workflow leaves it. */
async function longTrack(userId: string): Promise<Generation> {
  const now = new Date().toISOString();
  const generation: Generation = {
    id: randomUUID(),
    userId,
    type: 'text-to-music',
    title: longTitle,
    tags: `e2e-${tag},${'synthwave'.repeat(12)}`,
    lyrics: `${'la'.repeat(60)}\nWalking down the harbour at night`,
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
  await dynamoGenerationStore(documents, tableName).create(generation);
  return generation;
}

/**
 * The page is no wider than the screen (nothing to scroll sideways). On
 * failure the message names the elements that stick out.
 */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => {
    const width = window.innerWidth;
    const sticking = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">`);
    return { scrollWidth: document.documentElement.scrollWidth, width, sticking };
  });
  expect([where, found.width]).toEqual([where, PHONE.width]);
  expect(found.scrollWidth, `${where} scrolls sideways: ${found.sticking.join(', ')}`).toBeLessThanOrEqual(
    found.width,
  );
}

/** The element lies wholly on the screen, left to right. */
async function expectOnScreen(locator: Locator, where: string): Promise<void> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${where} has no box`);
  expect([where, box.x >= 0, box.x + box.width <= PHONE.width + 0.5]).toEqual([where, true, true]);
}

/** The element lies wholly on the screen, and nothing in it is cut off sideways. */
async function expectWithinScreen(locator: Locator, where: string): Promise<void> {
  await expectOnScreen(locator, where);
  const clipped = await locator.evaluate((element) => element.scrollWidth > element.clientWidth + 0.5);
  expect([where, clipped]).toEqual([where, false]);
}

/** Waits for the page, then checks it for sideways scrolling and accessibility. */
async function check(page: Page, where: string, ready: Locator): Promise<void> {
  await ready.waitFor();
  await expectNoSidewaysScroll(page, where);
  await expectNoSeriousViolations(page, `${where} at 390 px`);
}

describe('a phone, 390 px wide, with the longest title and name there is', () => {
  let track: Generation;
  beforeAll(async () => {
    const userId = await verifiedUser(baseUrl, { ...person, password });
    track = await longTrack(userId);
  });

  // Every page is checked with axe as well, which takes a while on a busy machine.
  const JOURNEY_MS = 300_000;

  it(
    'shows a visitor every public page without sideways scrolling',
    async () => {
      // Home (with the gallery), the track page and the public pages.
      const page = await context.newPage();
      await page.goto(baseUrl);
      const galleryCard = page
        .getByRole('region', { name: 'Community Gallery' })
        .getByRole('heading', { name: longTitle });
      await check(page, 'home with the gallery', galleryCard);
      await expectWithinScreen(galleryCard, 'the gallery card title');

      // The gallery page with its sorts and like buttons (decision 057).
      await page.goto(`${baseUrl}/gallery`);
      const sortedCard = page.getByRole('heading', { name: longTitle });
      await check(page, 'gallery page', sortedCard);
      await expectWithinScreen(sortedCard, 'the gallery page card title');

      await page.goto(`${baseUrl}/track/${track.id}`);
      await check(page, 'track page', page.getByRole('heading', { level: 1, name: longTitle }));
      await page.goto(`${baseUrl}/pricing`);
      await check(page, 'pricing', page.getByRole('article', { name: 'Basic' }));
      await page.goto(`${baseUrl}/privacy`);
      await check(page, 'privacy', page.getByRole('heading', { level: 1 }));
      await page.goto(`${baseUrl}/contact`);
      await check(page, 'contact', page.getByRole('heading', { level: 1 }));

      // Terms: the plans table scrolls inside a region reached with Tab, and arrows scroll it.
      await page.goto(`${baseUrl}/terms`);
      const plans = page.getByRole('region', { name: 'Plans, prices and weekly quotas' });
      await check(page, 'terms', plans);
      expect(await plans.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      await page.getByRole('heading', { name: 'Plans, prices and quotas' }).click();
      let reached = false;
      for (let presses = 0; presses < 10 && !reached; presses++) {
        await page.keyboard.press('Tab');
        reached = await plans.evaluate((element) => element === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => plans.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);

      await page.close();
    },
    JOURNEY_MS,
  );

  it(
    'shows the person with the long name their pages, dialogs and notices without sideways scrolling',
    async () => {
      const page = await context.newPage();
      // Create (with its library tab), Library, Profile.
      await signIn(page, baseUrl, person.email, password);
      await check(page, 'create', page.getByRole('tab', { name: 'Text to Music' }));
      await page.getByRole('tab', { name: 'My Library' }).click();
      await check(page, 'create, My Library', page.getByRole('article', { name: longTitle }));
      await page.getByRole('tab', { name: 'Audio to Music' }).click();
      await check(page, 'create, Audio to Music', page.getByRole('button', { name: 'Upload Audio' }));
      expect(await page.getByRole('tabpanel').textContent()).toContain('up to 50 MB');
      // The upload dialog writes a chosen file's size as the form writes the limit: 50.4 MB is 50 MB, not 48 MB.
      await page.getByRole('button', { name: 'Upload Audio' }).click();
      const upload = page.getByRole('dialog', { name: 'Upload Audio' });
      await upload.waitFor();
      const nearLimit = join(mkdtempSync(join(tmpdir(), 'tunesmith-layout-')), 'near-limit.wav');
      // A WAV's first bytes, then silence: the dialog refuses a file that is not audio as it is chosen.
      writeFileSync(nearLimit, 'RIFF\0\0\0\0WAVE');
      truncateSync(nearLimit, 50_400_000);
      await page.locator('.uppy-Dashboard-input').first().setInputFiles(nearLimit);
      await page.locator('.uppy-Dashboard-Item-statusSize').waitFor();
      expect(await page.locator('.uppy-Dashboard-Item-statusSize').textContent()).toBe('50 MB');
      expect(await upload.textContent()).not.toContain('48 MB');
      // (Uppy keeps its other panels beside the visible one, so only its box is checked.)
      await expectOnScreen(upload, 'the upload dialog');
      await expectNoSidewaysScroll(page, 'the upload dialog');
      rmSync(dirname(nearLimit), { recursive: true, force: true });
      await page.keyboard.press('Escape');
      await upload.waitFor({ state: 'hidden' });
      await page.goto(`${baseUrl}/library`);
      const libraryCard = page.getByRole('article', { name: longTitle });
      await check(page, 'library', libraryCard);
      await expectWithinScreen(libraryCard, 'the library card');
      // Every action of the card (Rename, visibility, download, Share, Delete) is on the screen.
      const actions = libraryCard.locator('button, a');
      expect(await actions.count()).toBeGreaterThanOrEqual(4);
      for (const action of await actions.all()) {
        await expectWithinScreen(action, `library action ${await action.textContent()}`);
      }
      // The delete confirmation names the track, and fits.
      await libraryCard.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'Cancel' }).waitFor();
      await expectWithinScreen(confirm, 'the delete track dialog');
      await expectNoSidewaysScroll(page, 'library with the delete dialog');
      await confirm.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`${baseUrl}/profile`);
      const main = page.getByRole('main');
      await check(page, 'profile', main.getByLabel('Current Email', { exact: true }));
      expect(await main.getByLabel('Current Email', { exact: true }).inputValue()).toBe(person.email);
      // Profile → Developers loads after the page: its forms and buttons fit too.
      const developers = main.getByRole('region', { name: 'Developers' });
      await check(page, 'profile, Developers', developers.getByRole('button', { name: 'Add Endpoint' }));
      for (const button of ['Create Key', 'Add Endpoint']) {
        await expectWithinScreen(developers.getByRole('button', { name: button }), `Developers' ${button}`);
      }
      await page.goto(`${baseUrl}/pricing`);
      await check(page, 'pricing, signed in', page.getByRole('article', { name: 'Basic' }));
      await page.close();
    },
    JOURNEY_MS,
  );

  it(
    'shows an administrator every admin page, each user and track as a card with its actions on the screen',
    async () => {
      const adminPage = await context.newPage();
      await signInAdmin(adminPage, baseUrl, admin);
      await check(adminPage, 'admin dashboard', adminPage.getByText(/UTC day/));

      // Users: each row is a card with every field and every action on the screen.
      await adminPage.goto(`${baseUrl}/admin/users`);
      await adminPage.getByLabel('Search users by name or email').fill(person.lastName);
      const name = `${person.firstName} ${person.lastName}`;
      const userCard = adminPage.getByRole('article', { name });
      // The search has answered when this user's card is the only one.
      await expect.poll(() => adminPage.getByRole('article').count()).toBe(1);
      await check(adminPage, 'admin users', userCard);
      expect(await adminPage.getByRole('table').count()).toBe(0);
      for (const field of ['Email Status', 'Subscription', 'Generations', 'Joined']) {
        await expectWithinScreen(userCard.getByText(field, { exact: true }), `the user card's ${field}`);
      }
      await expectWithinScreen(userCard.getByText(person.email), "the user card's email");
      const verified = userCard.getByRole('switch', { name: `Email verified for ${name}` });
      await expectWithinScreen(verified, 'the verified switch');
      await expectWithinScreen(userCard.getByRole('button', { name: `Edit ${name}` }), 'Edit');
      await userCard.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = adminPage.getByRole('dialog', { name: 'Edit User' });
      await edit.getByLabel('First Name').waitFor();
      await expectWithinScreen(edit, 'the edit user dialog');
      await expectNoSeriousViolations(adminPage, 'admin edit user dialog at 390 px');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await expectWithinScreen(userCard.getByRole('button', { name: `Manage plan of ${name}` }), 'Plan');
      await userCard.getByRole('button', { name: `Manage plan of ${name}` }).click();
      const planDialog = adminPage.getByRole('dialog', { name: 'Manage Plan' });
      await planDialog.getByLabel('Plan', { exact: true }).waitFor();
      await expectWithinScreen(planDialog, 'the manage plan dialog');
      await adminPage.keyboard.press('Escape');
      await expectWithinScreen(userCard.getByRole('button', { name: `Delete ${name}` }), 'Delete');
      await userCard.getByRole('button', { name: `Delete ${name}` }).click();
      const deleteUser = adminPage.getByRole('alertdialog', { name: 'Delete this user?' });
      await deleteUser.getByRole('button', { name: 'Cancel' }).waitFor();
      await expectWithinScreen(deleteUser, 'the delete user dialog');
      await expectNoSidewaysScroll(adminPage, 'admin users with the delete dialog');
      await deleteUser.getByRole('button', { name: 'Cancel' }).click();

      // Tracks: the track's card, its actions on the screen, and the toast that names it.
      await adminPage.goto(`${baseUrl}/admin/tracks`);
      await adminPage.getByLabel('Search tracks by title or tags').fill(`e2e-${tag}`);
      const trackCard = adminPage.getByRole('article', { name: longTitle });
      await expect.poll(() => adminPage.getByRole('article').count()).toBe(1);
      await check(adminPage, 'admin tracks', trackCard);
      await expectWithinScreen(adminPage.getByRole('button', { name: `Download ${longTitle}` }), 'Download');
      await expectWithinScreen(
        adminPage.getByRole('button', { name: `Delete ${longTitle}` }),
        'Delete track',
      );
      const gallerySwitch = adminPage.getByRole('switch', { name: `Show ${longTitle} in Gallery` });
      await expectWithinScreen(gallerySwitch, 'Show in Gallery');
      await gallerySwitch.click();
      await toast(adminPage, 'Track Updated').waitFor();
      await expectWithinScreen(
        adminPage.locator('[data-variant]').filter({ hasText: 'Track Updated' }),
        'the admin toast',
      );
      await expectNoSidewaysScroll(adminPage, 'admin tracks with a toast');
      await gallerySwitch.click();
      await expect.poll(() => gallerySwitch.getAttribute('aria-checked')).toBe('true');

      await adminPage.goto(`${baseUrl}/admin/plans`);
      await check(adminPage, 'admin plans', adminPage.getByRole('article', { name: 'Basic' }));
      await adminPage.goto(`${baseUrl}/admin/models`);
      await check(adminPage, 'admin models', adminPage.getByRole('article', { name: 'MiniMax Music 2.5' }));
      await adminPage.goto(`${baseUrl}/admin/settings`);
      await check(
        adminPage,
        'admin settings, General',
        adminPage.getByRole('form', { name: 'Site Description' }),
      );
      for (const tab of ['Stripe', 'Webhooks', 'Security']) {
        await adminPage.getByRole('tab', { name: tab }).click();
        await expect
          .poll(() => adminPage.getByRole('tab', { name: tab }).getAttribute('aria-selected'))
          .toBe('true');
        await expectNoSidewaysScroll(adminPage, `admin settings, ${tab}`);
        await expectNoSeriousViolations(adminPage, `admin settings, ${tab} at 390 px`);
      }
      // The sidebar opens over the page and fits as well.
      await adminPage.getByRole('button', { name: /menu/i }).click();
      await adminPage.getByRole('navigation', { name: 'Admin' }).waitFor();
      await expectNoSidewaysScroll(adminPage, 'admin menu');
      await adminPage.close();
    },
    JOURNEY_MS,
  );
});
