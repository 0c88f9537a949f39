import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sdkConnection } from '../../functions/src/adapters/stripe/stripe-payments';
import { keys } from '../../functions/src/data/keys';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { journeyAdmin, signIn, signInAdmin, toast, verifiedUser } from './people';

// Money a customer can trust, in Chromium: two tabs never make two
// subscriptions, the price an admin sets is the price shown and charged, and
// Pricing's switch opens the portal's confirm step.

const baseUrl = inject('baseUrl');
/** An administrator of this journey's own (another journey changes the first admin's password). */
const admin = { username: `prices-${randomUUID().slice(0, 8)}`, password: 'prices admin 1' };
const cloudEnv = inject('cloudEnv');
const stripe = new Stripe(cloudEnv.STRIPE_SECRET_KEY as string, {
  ...sdkConnection(cloudEnv.STRIPE_API_BASE),
  maxNetworkRetries: 0,
});
const dynamo = new DynamoDBClient({
  region: cloudEnv.AWS_REGION,
  endpoint: cloudEnv.DYNAMODB_ENDPOINT,
  credentials: {
    accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID ?? 'local',
    secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY ?? 'local',
  },
});
const documents = DynamoDBDocumentClient.from(dynamo);
const tableName = cloudEnv.TABLE_NAME as string;
const password = 'two tabs 1';
let browser: Browser;

beforeAll(async () => {
  await journeyAdmin(cloudEnv, admin);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  dynamo.destroy();
});

const card = (page: Page) => page.getByRole('region', { name: 'Current Subscription' });

/** Pricing → `plan` on the monthly cycle → its Checkout page (not paid). */
async function openCheckout(page: Page, plan: string): Promise<void> {
  await page.goto(`${baseUrl}/pricing`);
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await page.getByRole('button', { name: `Choose ${plan}` }).click();
  await page.getByRole('heading', { name: `Subscribe to ${plan}` }).waitFor();
}

/** Types the card as a person would: the expiry field formats itself as it is typed. */
async function typeCard(page: Page, number = '4242 4242 4242 4242'): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  const expiry = page.getByLabel('Expiration (MM / YY)');
  await expiry.click();
  await page.keyboard.type('1234');
  expect(await expiry.inputValue()).toBe('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

/** The Stripe customer of the account with `email`, through its profile. */
async function customerOf(email: string): Promise<string> {
  const claim = await documents.send(
    new GetCommand({ TableName: tableName, Key: keys.emailClaim(email), ConsistentRead: true }),
  );
  const profile = await documents.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.user(String(claim.Item?.userId)),
      ConsistentRead: true,
    }),
  );
  const customer = profile.Item?.stripeCustomerId;
  if (typeof customer !== 'string') throw new Error(`no Stripe customer for ${email}`);
  return customer;
}

/** A phone's screen: the hosted pages are used there as much as on a desk. */
const PHONE = { width: 390, height: 844 };

/** Nothing on the page reaches past the screen's right edge. */
async function fitsTheScreen(page: Page, where: string): Promise<void> {
  const { scrollWidth, width } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scrollWidth, `${where} scrolls sideways`).toBeLessThanOrEqual(width);
}

async function twoTabs(
  viewport?: typeof PHONE,
): Promise<{ context: BrowserContext; first: Page; second: Page; email: string }> {
  const email = `tabs-${randomUUID().slice(0, 8)}@example.com`;
  await verifiedUser(baseUrl, { email, password });
  const context = await browser.newContext(viewport ? { viewport } : {});
  const first = await context.newPage();
  await signIn(first, baseUrl, email, password);
  const second = await context.newPage();
  return { context, first, second, email };
}

describe('two tabs, one subscription', () => {
  it('the older page expires, whichever tab pays first, and the account has one plan and one charge', async () => {
    // Order 1: the older page is paid after the newer one opened.
    {
      const { context, first, second, email } = await twoTabs();
      await openCheckout(first, 'Basic');
      await expectNoSeriousViolations(first, 'embedded Checkout');
      await openCheckout(second, 'Premium');
      await typeCard(first);
      await first.getByRole('button', { name: 'Subscribe' }).click();
      await first.getByRole('heading', { name: 'This checkout has expired.' }).waitFor();
      await first.getByText(/Nothing was charged\./).waitFor();
      await expectNoSeriousViolations(first, 'expired Checkout');

      await typeCard(second);
      await second.getByRole('button', { name: 'Subscribe' }).click();
      await second.getByText("Payment confirmed. You're on Premium.").waitFor({ timeout: 30_000 });
      const customer = await customerOf(email);
      const subscriptions = await stripe.subscriptions.list({ customer, status: 'all' });
      expect(subscriptions.data.map((s) => s.status)).toEqual(['active']);
      const charges = await stripe.charges.list({ customer });
      expect(charges.data.map((c) => c.amount_captured - c.amount_refunded)).toEqual([1900]);

      // Choosing a plan again, from either tab, cannot start a second payment.
      await first.goto(`${baseUrl}/pricing`);
      await first.getByRole('button', { name: 'Switch to Basic' }).waitFor();
      expect(await first.getByRole('button', { name: 'Choose Basic' }).count()).toBe(0);
      await context.close();
    }
    // Order 2, on a phone: the newer page is paid first; the older one then refuses.
    {
      const { context, first, second, email } = await twoTabs(PHONE);
      await openCheckout(first, 'Basic');
      await fitsTheScreen(first, 'Checkout on a phone');
      await expectNoSeriousViolations(first, 'embedded Checkout on a phone');
      await openCheckout(second, 'Basic');
      await typeCard(second);
      await second.getByRole('button', { name: 'Subscribe' }).click();
      await second.getByText("Payment confirmed. You're on Basic.").waitFor({ timeout: 30_000 });
      await typeCard(first);
      await first.getByRole('button', { name: 'Subscribe' }).click();
      await first.getByRole('heading', { name: 'This checkout has expired.' }).waitFor();
      await fitsTheScreen(first, 'the expired Checkout on a phone');
      const customer = await customerOf(email);
      expect((await stripe.subscriptions.list({ customer, status: 'all' })).data).toHaveLength(1);
      await context.close();
    }
  });
});

describe("Pricing's switch", () => {
  it("opens the portal's confirm step for the chosen plan, and the plan changes once confirmed", async () => {
    const email = `switch-${randomUUID().slice(0, 8)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, baseUrl, email, password);
    await openCheckout(page, 'Basic');
    await typeCard(page);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText("Payment confirmed. You're on Basic.").waitFor({ timeout: 30_000 });

    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('radio', { name: 'Yearly' }).check();
    await page.getByRole('button', { name: 'Switch to Premium' }).click();
    await page.getByRole('heading', { name: 'Confirm your new plan' }).waitFor();
    await page.getByText(/^Premium · \$190\.00 per year$/).waitFor();
    await fitsTheScreen(page, 'the portal confirm step on a phone');
    await expectNoSeriousViolations(page, 'portal confirm step');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/profile/);
    await expect
      .poll(
        async () => {
          // The webhook lands a moment after the portal's change: read the profile again until it has.
          await page.goto(`${baseUrl}/profile`);
          await card(page).getByText('Billed', { exact: false }).waitFor();
          return card(page).getByText('Premium', { exact: true }).count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    await card(page).getByText('Billed yearly').waitFor();
    await page.close();
  });
});

describe('a price edit', () => {
  it('is what Pricing shows, Checkout charges and the invoice says; the form warns before saving', async () => {
    const name = `Studio ${randomUUID().slice(0, 6)}`;
    const adminPage = await browser.newPage();
    await signInAdmin(adminPage, baseUrl, admin);

    // A new paid plan at $7 a month.
    await adminPage.goto(`${baseUrl}/admin/plans`);
    await adminPage.getByRole('button', { name: 'Create Plan' }).first().click();
    let dialog = adminPage.getByRole('dialog', { name: 'Create Plan' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Monthly Price ($)').fill('7');
    await dialog.getByLabel('Sort Order').fill('90');
    await dialog.getByRole('button', { name: 'Create Plan' }).click();
    await toast(adminPage, 'Plan Created').waitFor();

    // The edit to $11: the form says who pays what before it is saved.
    await adminPage.getByRole('button', { name: `Edit ${name}` }).click();
    dialog = adminPage.getByRole('dialog', { name: 'Edit Plan' });
    await dialog.getByLabel('Monthly Price ($)').fill('11');
    await dialog
      .getByRole('status')
      .getByText(
        'New subscribers pay $11 per month. Existing subscribers keep the price they pay now until they change plan.',
      )
      .waitFor();
    await expectNoSeriousViolations(adminPage, 'plan form with a price edit');
    await dialog.getByRole('button', { name: 'Update Plan' }).click();
    await toast(adminPage, 'Plan Updated').waitFor();

    const email = `edit-${randomUUID().slice(0, 8)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage();
    await signIn(page, baseUrl, email, password);
    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('radio', { name: 'Monthly' }).check();
    const offer = page.getByRole('article', { name });
    await offer.getByText('$11', { exact: true }).waitFor();
    await offer.getByRole('button', { name: `Choose ${name}` }).click();
    await page.getByRole('heading', { name: `Subscribe to ${name}` }).waitFor();
    await page.getByText('$11.00', { exact: true }).waitFor();
    await typeCard(page);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText(`Payment confirmed. You're on ${name}.`).waitFor({ timeout: 30_000 });
    const invoices = await stripe.invoices.list({ customer: await customerOf(email) });
    expect(invoices.data.map((invoice) => invoice.amount_paid)).toEqual([1100]);

    // The plan leaves Pricing again, so the other journeys see the seed's plans.
    await adminPage.getByRole('button', { name: `Edit ${name}` }).click();
    dialog = adminPage.getByRole('dialog', { name: 'Edit Plan' });
    await dialog.getByRole('switch', { name: 'Active (offered on Pricing)' }).click();
    await dialog.getByRole('button', { name: 'Update Plan' }).click();
    await toast(adminPage, 'Plan Updated').waitFor();
    await page.close();
    await adminPage.close();
  });
});

describe("the embedded Checkout under the site's name", () => {
  it('names the business as Site Name does', async () => {
    const key = keys.setting('site_name');
    const before = (await documents.send(new GetCommand({ TableName: tableName, Key: key }))).Item;
    const siteName = `Harbour Radio ${randomUUID().slice(0, 4)}`;
    try {
      await documents.send(
        new PutCommand({ TableName: tableName, Item: { ...(before ?? { ...key }), value: siteName } }),
      );
      const { context, first } = await twoTabs();
      await openCheckout(first, 'Basic');
      await first.getByText(siteName, { exact: true }).waitFor();
      await context.close();
    } finally {
      if (before) await documents.send(new PutCommand({ TableName: tableName, Item: before }));
      else await documents.send(new DeleteCommand({ TableName: tableName, Key: key }));
    }
  });
});
