import { routesOfGroup } from '@tunesmith/shared/routes';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';

const baseUrl = inject('baseUrl');

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

describe('a developer reads the API reference', () => {
  it('goes from the footer to the Developers page, which shows every call and passes axe', async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${baseUrl}/pricing`);
    await page.getByRole('article', { name: 'Basic' }).waitFor();
    // Nothing of the page loads before a visit: its chunk is asked for on the way to it.
    expect(scripts.filter((path) => /\/developers-[\w-]+\.js$/.test(path))).toEqual([]);

    await page.getByRole('contentinfo').getByRole('link', { name: 'Developers' }).click();
    await page.waitForURL(`${baseUrl}/developers`);
    await page.getByRole('heading', { level: 2, name: 'Endpoints' }).waitFor();
    expect(await page.title()).toBe('Developers | Tunesmith');
    expect(scripts.filter((path) => /\/developers-[\w-]+\.js$/.test(path))).toHaveLength(1);
    for (const route of routesOfGroup('api-v1')) {
      const article = page
        .getByRole('article')
        .filter({ has: page.locator(`h3:has(code:text-is("${route.path}"))`) });
      expect(await article.filter({ hasText: route.method }).count(), route.id).toBeGreaterThan(0);
    }
    await expectNoSeriousViolations(page, 'developers');
  });

  it('reaches a code block by keyboard and switches an example to TypeScript', async () => {
    await page.goto(`${baseUrl}/developers#examples`);
    const tabs = page.getByRole('tablist', { name: 'Create a track and wait for it: language' });
    await tabs.waitFor();
    await tabs.getByRole('tab', { name: 'curl' }).focus();
    await page.keyboard.press('ArrowRight');
    const typescript = page.getByRole('region', { name: 'create-track.ts' });
    await typescript.waitFor();
    expect(await tabs.getByRole('tab', { name: 'TypeScript' }).getAttribute('aria-selected')).toBe('true');
    // The code scrolls sideways: its block is in the Tab order, a few stops after the tab (the panel, Copy).
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    for (let stop = 0; stop < 4 && (await focused()) !== 'create-track.ts'; stop++)
      await page.keyboard.press('Tab');
    expect(await focused()).toBe('create-track.ts');
    await expectNoSeriousViolations(page, 'developers, TypeScript example');
  });
});
