import { DELETE_ACCOUNT_CONFIRMATION } from '@tunesmith/shared/ownership';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser';
import { signIn, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** What has focus: its tag, and its accessible text (a heading's or a field's label). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const label =
      element instanceof HTMLInputElement ? (element.labels?.[0]?.textContent ?? '') : element.textContent;
    return `${element.tagName.toLowerCase()} ${label?.trim()}`;
  });
}

describe('focus', () => {
  it("moves to each new page's heading, by link, in the footer and Back, and is left alone on the first page", async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact Us' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-frame-disabled]'));
    expect(await focused(page)).toBe('body');

    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Choose Your Plan' }).waitFor();
    await expect.poll(() => focused(page)).toBe('h1 Choose Your Plan');

    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    await expect.poll(() => focused(page)).toBe('h1 Terms of Service');

    await page.goBack();
    await expect.poll(() => focused(page)).toBe('h1 Choose Your Plan');
    // The heading is a place to start reading, not a control: no focus ring around it.
    expect(
      await page.getByRole('heading', { level: 1 }).evaluate((h1) => getComputedStyle(h1).outlineStyle),
    ).toBe('none');
    await page.close();
  });

  it('goes back to the password after a wrong one in Delete Account', async () => {
    const email = `focus-delete-${Date.now().toString(36)}@example.com`;
    const password = 'focus delete 1';
    await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage();
    await signIn(page, baseUrl, email, password);
    await page.goto(`${baseUrl}/profile`);
    await page
      .getByRole('region', { name: 'Danger Zone' })
      .getByRole('button', { name: 'Delete Account' })
      .click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Current Password', { exact: true }).fill('not my password');
    await dialog
      .getByLabel(`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`)
      .fill(DELETE_ACCOUNT_CONFIRMATION);
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();

    await dialog.getByText('Current password is incorrect').waitFor();
    await expect.poll(() => focused(page)).toBe('input Current Password');
    await page.close();
  });

  it('stays on the export card as the button that started an export gives way to its progress', async () => {
    const email = `focus-export-${Date.now().toString(36)}@example.com`;
    const password = 'focus export 1';
    await verifiedUser(baseUrl, { email, password });
    const page = await browser.newPage();
    await signIn(page, baseUrl, email, password);
    await page.goto(`${baseUrl}/profile`);
    const card = page.getByRole('region', { name: 'Your Music' });
    await card.getByRole('button', { name: 'Download all my music' }).click();

    await card.getByRole('button', { name: 'Download all my music' }).waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('h2 Your Music');
    await page.close();
  });
});
