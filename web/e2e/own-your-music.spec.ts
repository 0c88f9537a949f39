import { DELETE_ACCOUNT_CONFIRMATION, ownershipMessages } from '@tunesmith/shared/ownership';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, toast, verifiedUser } from './people';
import { expectFitsPhone, PHONE } from './phone';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'own my music 1';
const GENERATION_MS = 90_000;
/** Pricing → Basic, monthly → the embedded Checkout paid with Stripe's test card; back on the profile, confirmed. */
async function subscribeToBasic(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/pricing`);
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await page.getByRole('button', { name: 'Choose Basic' }).click();
  await page.getByRole('heading', { name: 'Subscribe to Basic' }).waitFor();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.waitForURL(/\/profile/);
  await page.getByText("Payment confirmed. You're on Basic.").waitFor({ timeout: 30_000 });
}

/** Makes a short track on the Create page and answers its id once it is ready. */
async function makeTrack(page: Page, title: string): Promise<string> {
  await page.goto(baseUrl);
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Genre Tags').fill('folk, acoustic');
  await panel.getByLabel('Title (optional)').fill(title);
  await panel.getByRole('slider', { name: 'Duration' }).focus();
  await page.keyboard.press('Home');
  await panel.getByRole('button', { name: 'Generate Music' }).click();
  await toast(page, 'Music Generated!').waitFor({ timeout: GENERATION_MS });
  const tracks = (await page.evaluate(async () =>
    (await fetch('/api/my-generations', { credentials: 'include' })).json(),
  )) as { id: string; title: string | null; status: string }[];
  const made = tracks.find((track) => track.title === title && track.status === 'completed');
  if (!made) throw new Error(`no finished track called ${title}`);
  return made.id;
}

describe('own your music', () => {
  it('a paying user with a track deletes the account from the profile, and cannot sign in again', async () => {
    const email = `leaver-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);
    await subscribeToBasic(page);
    const trackId = await makeTrack(page, 'Last Song');

    // On a phone, the profile's danger zone opens the dialog.
    await page.setViewportSize(PHONE);
    await page.goto(`${baseUrl}/profile`);
    const zone = page.getByRole('region', { name: 'Danger Zone' });
    await zone.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.getByText(ownershipMessages.subscriptionEndsNow).waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete My Account' });
    expect(await confirm.isDisabled()).toBe(true);
    await expectFitsPhone(dialog, confirm);
    await expectNoSeriousViolations(page, 'delete account dialog');

    // The button waits for both: the password, and the word typed exactly.
    await dialog.getByLabel('Current Password', { exact: true }).fill(password);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog
      .getByLabel(`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`)
      .fill(DELETE_ACCOUNT_CONFIRMATION);
    expect(await confirm.isDisabled()).toBe(false);
    await expectNoSeriousViolations(page, 'delete account dialog, filled in');
    await confirm.click();

    // Signed out here and home, with the toast.
    await toast(page, 'Account deleted').waitFor();
    await page.waitForURL(`${baseUrl}/`);
    // The cookies went with the answer: this browser is a visitor now.
    expect(await page.evaluate(async () => (await fetch('/api/auth/user')).status)).toBe(401);

    // Once the job has run, the track's share page is not found, and the account cannot sign in.
    await expect
      .poll(
        async () => {
          await page.goto(`${baseUrl}/track/${trackId}`);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          return page.getByRole('heading', { name: 'Track Not Found' }).count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(1);
    await page.goto(`${baseUrl}/auth`);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email', { exact: true }).fill(email);
    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await toast(page, 'Invalid email or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await context.close();
  });
});
