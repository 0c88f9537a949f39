import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, toast, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'plan payer 1';
const GENERATION_MS = 90_000;

/** The Profile's subscription card. */
const card = (page: Page) => page.getByRole('region', { name: 'Current Subscription' });

/** Waits until the subscription card shows `badge` (reloading: webhooks land a moment after Stripe acts). */
async function badgeReads(page: Page, badge: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto(`${baseUrl}/profile`);
        await page.getByRole('heading', { name: 'Current Subscription' }).waitFor();
        return card(page).getByText(badge, { exact: true }).count();
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBeGreaterThan(0);
}

/** Fills the hosted card field (Checkout or the portal's Save card form). */
async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

/** Moves the embedded Stripe's test clock on (the local cloud only). */
async function advanceClock(days: number): Promise<void> {
  const answer = await fetch(`${baseUrl}/_dev/stripe/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ days }),
  });
  expect(answer.status).toBe(200);
}

/** Pricing → a plan on the monthly cycle → the embedded Checkout paid with `cardNumber`. */
async function subscribe(page: Page, plan: string, cardNumber: string): Promise<void> {
  await page.goto(`${baseUrl}/pricing`);
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await page.getByRole('button', { name: `Choose ${plan}` }).click();
  await page.getByRole('heading', { name: `Subscribe to ${plan}` }).waitFor();
  await fillCard(page, cardNumber);
  await page.getByRole('button', { name: 'Subscribe' }).click();
}

describe('a subscription, from Pricing to its end', () => {
  it('pays, uses the plan, switches, cancels, keeps it until the end, expires, and a declined renewal', async () => {
    const email = `payer-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);

    // A declined card stays on Checkout with Stripe's message; 4242 pays.
    await subscribe(page, 'Basic', '4000 0000 0000 0002');
    await page.getByText('Your card was declined.').waitFor();
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Subscribe' }).click();

    // Back on the profile, the payment is confirmed once the webhook lands.
    await page.waitForURL(/\/profile/);
    await page.getByText("Payment confirmed. You're on Basic.").waitFor({ timeout: 30_000 });
    let subscription = card(page);
    await subscription.getByText('Active', { exact: true }).waitFor();
    await subscription.getByText('Basic', { exact: true }).waitFor();
    await subscription.getByText('Billed monthly').waitFor();
    await subscription.getByText('0 / 30').waitFor();
    await subscription.getByText(/^Renews on /).waitFor();
    await expectNoSeriousViolations(page, 'profile, Basic confirmed');

    // Pricing marks the plan as the current one.
    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('button', { name: 'Current Plan' }).waitFor();
    await expectNoSeriousViolations(page, 'pricing, subscribed');

    // A private track, made and downloaded on the paid plan.
    await page.goto(baseUrl);
    let panel = page.getByRole('tabpanel');
    await panel.getByLabel('Genre Tags').fill('ambient, calm');
    await panel.getByLabel('Title (optional)').fill('Paid Quiet');
    await panel.getByRole('slider', { name: 'Duration' }).focus();
    await page.keyboard.press('Home');
    await panel.getByRole('button', { name: 'Generate Music' }).click();
    await toast(page, 'Music Generated!').waitFor({ timeout: GENERATION_MS });
    await page.getByRole('tab', { name: 'My Library' }).click();
    panel = page.getByRole('tabpanel');
    let track = panel.getByRole('article', { name: 'Paid Quiet' });
    await track.getByRole('button', { name: 'Make Private' }).click();
    await track.getByRole('button', { name: 'Make Public' }).waitFor();
    await track.getByRole('button', { name: 'Download' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('dialog', { name: 'Download Track' })
        .getByRole('button', { name: 'Download WAV' })
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.wav$/);

    // Manage Billing opens the portal: switch to Premium yearly, then return.
    await page.goto(`${baseUrl}/profile`);
    await page.getByRole('button', { name: 'Manage Billing' }).click();
    await page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
    const premiumYearly = page.getByRole('option', { name: /^Premium · .* per year$/ });
    await page.getByLabel('Plan').selectOption({ label: (await premiumYearly.textContent()) ?? '' });
    await page.getByRole('button', { name: 'Update subscription' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /updated/i })
      .waitFor();
    await page.getByRole('link', { name: '← Return to Tunesmith' }).click();
    await page.waitForURL(/\/profile/);
    await expect
      .poll(() => card(page).getByText('Premium', { exact: true }).count(), { timeout: 20_000 })
      .toBe(1);
    subscription = card(page);
    await subscription.getByText('Billed yearly').waitFor();
    await subscription.getByText('1 / 100').waitFor();

    // Cancel, behind a confirmation: Cancelled, with the end date; still private and downloadable.
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/Cancellation takes effect on /).waitFor();
    await expectNoSeriousViolations(page, 'cancel subscription dialog');
    await confirm.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
    await toast(page, 'Subscription Cancelled').waitFor();
    await card(page).getByText('Cancelled', { exact: true }).waitFor({ timeout: 20_000 });
    await card(page)
      .getByText(/^Ends on /)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Cancel Subscription' }).count()).toBe(0);
    await page.goto(baseUrl);
    await page.getByRole('tab', { name: 'My Library' }).click();
    track = page.getByRole('tabpanel').getByRole('article', { name: 'Paid Quiet' });
    await track.getByRole('button', { name: 'Make Public' }).waitFor();
    await track.getByRole('button', { name: 'Download' }).waitFor();

    // The test clock passes the period end: Free, 5 a week, Private off; the track stays private.
    await advanceClock(400);
    await badgeReads(page, 'Free');
    subscription = card(page);
    await subscription.getByText('Free', { exact: true }).first().waitFor();
    await subscription.getByText('1 / 5').waitFor();
    await expectNoSeriousViolations(page, 'profile, back on Free');
    await page.goto(baseUrl);
    expect(await page.getByRole('radio', { name: 'Private' }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'My Library' }).click();
    track = page.getByRole('tabpanel').getByRole('article', { name: 'Paid Quiet' });
    await track.getByRole('button', { name: 'Make Public' }).waitFor();
    await track.getByRole('link', { name: 'Upgrade to Download' }).waitFor();
    await expectNoSeriousViolations(page, 'create, My Library on Free');

    // Subscribe again, save a card that declines later, and the renewal fails: Inactive.
    await subscribe(page, 'Basic', '4242 4242 4242 4242');
    await page.getByText("Payment confirmed. You're on Basic.").waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Manage Billing' }).click();
    await page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
    await fillCard(page, '4000 0000 0000 0341');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('status').waitFor();
    await advanceClock(32);
    await badgeReads(page, 'Inactive');
    await card(page)
      .getByText(/Your last payment failed/)
      .waitFor();
    await expectNoSeriousViolations(page, 'profile, Inactive');

    await context.close();
  });

  it('says nothing was charged when Checkout is left with Back', async () => {
    const email = `leaver-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage();
    await signIn(page, baseUrl, email, password);
    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('button', { name: 'Choose Premium' }).click();
    await page.getByRole('heading', { name: 'Subscribe to Premium' }).waitFor();
    await page.getByRole('link', { name: '← Back' }).click();
    await page.waitForURL(/\/profile/);
    await page.getByText('Checkout cancelled. You have not been charged.').waitFor();
    await card(page).getByText('Free', { exact: true }).first().waitFor();
    await expectNoSeriousViolations(page, 'profile, Checkout cancelled');
    await page.close();
  });

  it('sends a visitor who chooses a paid plan to sign in', async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('button', { name: 'Choose Basic' }).click();
    await page.waitForURL((url) => url.pathname === '/auth');
    await page.close();
  });
});
