import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { verifiedUser } from './people';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'chosen plan 1';
const unique = (name: string) => `${name}-${Date.now().toString(36)}@example.com`;

/** Pricing as a visitor: a cycle, then a paid plan, which leads to the sign-in page. */
async function choosePlan(page: Page, plan: string, cycle: 'Monthly' | 'Yearly'): Promise<void> {
  await page.goto(`${baseUrl}/pricing`);
  await page.getByRole('radio', { name: cycle }).check();
  await page.getByRole('button', { name: `Choose ${plan}` }).click();
  await page.waitForURL((url) => url.pathname === '/auth');
}

/** Fills and sends the Sign In form on the page shown now. */
async function signInHere(page: Page, email: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

/** The embedded Checkout for `plan`, at `amount` per `interval`. */
async function onCheckout(page: Page, plan: string, amount: string, interval: string): Promise<void> {
  await page.getByRole('heading', { name: `Subscribe to ${plan}` }).waitFor();
  await page.getByText(amount, { exact: true }).waitFor();
  await page.getByText(`per ${interval}`, { exact: true }).waitFor();
}

/** Opens the local mailbox and follows the newest link to `path` in a mail to `to`. */
async function followMailedLink(page: Page, to: string, path: string): Promise<void> {
  await page.goto(`${baseUrl}/_dev/mail`);
  const mail = page.locator('article', { hasText: to }).first();
  await mail.waitFor();
  const link = mail.locator(`a[href*="${path}"]`).first();
  const href = await link.getAttribute('href');
  expect(href?.startsWith(`${baseUrl}${path}`)).toBe(true);
  await link.click();
  await page.waitForURL((url) => url.pathname.startsWith(path));
}

describe('a plan chosen on Pricing survives the way to Checkout', () => {
  it('a visitor chooses Premium yearly, signs in, and lands on Checkout for Premium yearly', async () => {
    const email = unique('yearly');
    await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage();

    await choosePlan(page, 'Premium', 'Yearly');
    await page
      .getByText('Sign in or create an account to subscribe to Premium, billed yearly ($190/year).')
      .waitFor();
    await expectNoSeriousViolations(page, 'sign in, with the chosen plan');
    await signInHere(page, email);

    await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'));
    await onCheckout(page, 'Premium', '$190.00', 'year');
    await page.close();
  });

  it('a visitor chooses Basic monthly, signs up, verifies from the mail, signs in, pays, and is told with focus', async () => {
    const email = unique('monthly');
    const page = await browser.newPage();

    await choosePlan(page, 'Basic', 'Monthly');
    await page
      .getByText('Sign in or create an account to subscribe to Basic, billed monthly ($9/month).')
      .waitFor();
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const signUp = page.getByRole('form', { name: 'Sign up' });
    await signUp.getByLabel('First Name', { exact: true }).fill('Ella');
    await signUp.getByLabel('Last Name', { exact: true }).fill('Fitzgerald');
    await signUp.getByLabel('Email', { exact: true }).fill(email);
    await signUp.getByLabel('Password', { exact: true }).fill(password);
    await signUp.getByLabel('Confirm Password', { exact: true }).fill(password);
    await signUp.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${baseUrl}/check-email`);
    await page.getByText(/Hi Ella/).waitFor();

    await followMailedLink(page, email, '/verify-email/');
    await page.getByRole('heading', { name: 'Email Verified!' }).waitFor();
    await expectNoSeriousViolations(page, 'email verified, with a plan to return to');
    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await page.waitForURL((url) => url.pathname === '/auth');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/pricing?subscribe=basic&cycle=monthly');
    await page
      .getByText('Sign in or create an account to subscribe to Basic, billed monthly ($9/month).')
      .waitFor();
    await signInHere(page, email);

    await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'));
    await onCheckout(page, 'Basic', '$9.00', 'month');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiration (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Subscribe' }).click();

    await page.waitForURL((url) => url.pathname === '/profile');
    const notice = page.getByRole('status').filter({ hasText: /payment/i });
    await page.getByText("Payment confirmed. You're on Basic.").waitFor({ timeout: 30_000 });
    expect(await notice.evaluate((element) => element === document.activeElement)).toBe(true);
    await expectNoSeriousViolations(page, 'profile, Basic confirmed after Checkout');

    // Back on Pricing, nothing starts again: the plan is the current one.
    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('button', { name: 'Current Plan' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.close();
  });

  it.each([
    ['an absolute address', 'https://evil.example/'],
    ['a protocol-relative address', '//evil.example/pricing'],
    ['a backslash address', '/\\evil.example'],
  ])('ignores a next pointing off-site (%s) and goes home after signing in', async (_case, next) => {
    const email = unique('offsite');
    await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage();

    await page.goto(`${baseUrl}/auth?next=${encodeURIComponent(next)}`);
    await signInHere(page, email);

    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole('tab', { name: 'Text to Music' }).waitFor();
    expect(new URL(page.url()).origin).toBe(new URL(baseUrl).origin);
    await page.close();
  });
});
