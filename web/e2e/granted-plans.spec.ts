import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { journeyAdmin, signIn, signInAdminByApi, verifiedUser } from './people';

// A plan the site granted meets billing (decision 037), in Chromium: Pricing
// says what paying ends and asks first (also when the grant came after the
// page was read), and the notice after paying names the plan paid for.

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
/** An administrator of this journey's own (another journey changes the first admin's password). */
const admin = { username: `grants-${randomUUID().slice(0, 8)}`, password: 'grants admin 1' };
const password = 'granted plan 1';
let browser: Browser;
let adminSession: BrowserContext;

beforeAll(async () => {
  await journeyAdmin(cloudEnv, admin);
  browser = await launchBrowser();
  adminSession = await browser.newContext();
  await signInAdminByApi(adminSession, baseUrl, admin);
});
afterAll(async () => {
  await adminSession?.close();
  await browser?.close();
});

/** The administrator gives the user a plan, as the User Management dialog does. */
async function grant(userId: string, planId: string): Promise<void> {
  const answer = await adminSession.request.put(`${baseUrl}/api/admin/regular-users/${userId}/plan`, {
    data: { planId, status: 'active' },
    headers: { origin: baseUrl },
  });
  expect(answer.status()).toBe(200);
}

const card = (page: Page) => page.getByRole('region', { name: 'Current Subscription' });
const planCard = (page: Page, name: string) => page.getByRole('article', { name });

const premiumEnds =
  'Your Premium plan was granted by Tunesmith at no charge. Paying for Basic ends it now: ' +
  'your weekly limit goes from 100 to 30, and new tracks no longer come with a commercial license.';

describe('a plan the site granted', () => {
  it('is named on the profile, ends only when the person agrees on Pricing, and the notice names the plan paid for', async () => {
    const email = `granted-${Date.now().toString(36)}@example.com`;
    const id = await verifiedUser(baseUrl, { email, password });
    await grant(id, 'premium');
    const page = await browser.newPage();
    await signIn(page, baseUrl, email, password);

    // The profile says it is granted, what paying does, and offers no billing button that would open nothing.
    await page.goto(`${baseUrl}/profile`);
    const subscription = card(page);
    await subscription.getByText('Granted by the site: nothing is billed for this plan.').waitFor();
    await subscription.getByText('Paying for a plan on Pricing ends this grant.').waitFor();
    await subscription.getByText('0 / 100').waitFor();
    expect(await subscription.getByRole('button').count()).toBe(0);
    await subscription.getByRole('link', { name: 'See Plans' }).click();

    // Pricing: nothing to cancel on Free; choosing Basic asks first, and keeping Premium starts nothing.
    await page.waitForURL(`${baseUrl}/pricing`);
    await page.getByRole('radio', { name: 'Monthly' }).check();
    const free = planCard(page, 'Free');
    await free
      .getByText('Your Premium plan was granted by Tunesmith at no charge: there is nothing to cancel.')
      .waitFor();
    expect(await free.getByRole('button').count()).toBe(0);
    const choose = planCard(page, 'Basic').getByRole('button', { name: 'Choose Basic' });
    await choose.click();
    const dialog = page.getByRole('alertdialog', { name: 'End your Premium plan?' });
    await dialog.getByText(premiumEnds).waitFor();
    expect(
      await dialog
        .getByRole('button', { name: 'Keep Premium' })
        .evaluate((b) => b === document.activeElement),
    ).toBe(true);
    await expectNoSeriousViolations(page, 'pricing, grant ends dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await choose.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(page.url()).toBe(`${baseUrl}/pricing`);

    // Agreeing goes to Checkout; paying brings the notice of Basic, never of the Premium it replaced.
    await choose.click();
    await dialog.getByRole('button', { name: 'Pay for Basic' }).click();
    await page.getByRole('heading', { name: 'Subscribe to Basic' }).waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(/\/profile/);
    const notice = page.getByRole('status').filter({ hasText: /Payment confirmed|Confirming/ });
    await page.getByText("Payment confirmed. You're on Basic.").waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).not.toContain('Premium');
    await card(page).getByText('Billed monthly').waitFor();
    await card(page).getByText('0 / 30').waitFor();
    expect(await card(page).getByText('Granted by the site', { exact: false }).count()).toBe(0);
    await expectNoSeriousViolations(page, 'profile, paid after a grant');

    // A subscriber's Switch to Free lands on how to do it, beside the button that does.
    await page.goto(`${baseUrl}/pricing`);
    await planCard(page, 'Free').getByRole('button', { name: 'Switch to Free' }).click();
    await page
      .getByText(/^To switch to Free, cancel your subscription below: you keep Basic until /)
      .waitFor();
    await card(page).getByRole('button', { name: 'Cancel Subscription' }).waitFor();
    await page.close();
  });

  it('asks in the server’s words when the plan was granted after Pricing was opened', async () => {
    const email = `granted-late-${Date.now().toString(36)}@example.com`;
    const id = await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage();
    await signIn(page, baseUrl, email, password);
    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('radio', { name: 'Monthly' }).check();
    const choose = planCard(page, 'Basic').getByRole('button', { name: 'Choose Basic' });
    await choose.waitFor();

    await grant(id, 'premium');
    await choose.click();

    const dialog = page.getByRole('alertdialog', { name: 'End your Premium plan?' });
    await dialog.getByText(premiumEnds).waitFor();
    expect(page.url()).toBe(`${baseUrl}/pricing`);
    await dialog.getByRole('button', { name: 'Keep Premium' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The page now knows the grant: Premium is the current plan.
    await planCard(page, 'Premium').getByRole('button', { name: 'Current Plan' }).waitFor();
    await page.close();
  });
});
