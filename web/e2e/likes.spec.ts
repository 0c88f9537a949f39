import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, verifiedUser } from './people';

// Likes and the gallery's sorts (decision 057): a listener likes a creator's public track in the
// gallery, finds it in the library's Liked tab, and sorts the gallery by this week's likes.

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'likes journey 1';
const POLL = { timeout: 120_000, interval: 500 };
/** What the page shows after a click: quickly, but a machine under load may take seconds. */
const SHOWN = { timeout: 15_000 };

/** A finished public track of the signed-in user on `page`, shown in the gallery. */
async function publicTrack(page: Page, title: string): Promise<string> {
  const started = await page.request.post(`${baseUrl}/api/generate-text-to-music`, {
    headers: { origin: baseUrl },
    data: { tags: 'ambient, calm', lyrics: '', duration: 10, title, visibility: 'public' },
  });
  expect(started.status()).toBe(201);
  const { generationId } = (await started.json()) as { generationId: string };
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`${baseUrl}/api/track/${generationId}`)).json()) as {
            status: string;
          }
        ).status,
      POLL,
    )
    .toBe('completed');
  return generationId;
}

describe('likes and the gallery', () => {
  it('likes a track in the gallery, finds it in Liked, and sorts the gallery by this week', async () => {
    const run = Date.now().toString(36);
    const title = `Tide ${run}`;

    const creatorEmail = `creator-${run}@example.com`;
    await verifiedUser(baseUrl, { email: creatorEmail, password });
    const creator = await browser.newContext();
    const creatorPage = await creator.newPage();
    await signIn(creatorPage, baseUrl, creatorEmail, password);
    await publicTrack(creatorPage, title);
    await creator.close();

    const listenerEmail = `listener-${run}@example.com`;
    await verifiedUser(baseUrl, { email: listenerEmail, password });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, baseUrl, listenerEmail, password);

    // The header's Gallery link, newest first: the new track is there with no likes yet.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gallery' }).click();
    await page.getByRole('heading', { level: 1, name: 'Community Gallery' }).waitFor();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await card.waitFor();
    const like = card.getByRole('button', { name: `Like ${title}` });
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    expect(await like.textContent()).toContain(', 0 likes');
    await expectNoSeriousViolations(page, 'the gallery');

    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed'), SHOWN).toBe('true');
    await expect.poll(() => like.textContent(), SHOWN).toContain(', 1 like');
    await expect.poll(() => like.isDisabled(), SHOWN).toBe(false);

    // The library's Liked tab lists it.
    await page.goto(`${baseUrl}/library`);
    await page.getByRole('tab', { name: 'Liked' }).click();
    await page.getByRole('heading', { level: 1, name: 'Liked tracks' }).waitFor();
    await page.getByRole('heading', { name: title }).waitFor();
    expect(await page.getByRole('button', { name: `Like ${title}` }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await expectNoSeriousViolations(page, 'the Liked tab');

    // Sorting by keyboard: the sorts are one radio group; the arrow key chooses Top this week.
    await page.goto(`${baseUrl}/gallery`);
    await page.getByRole('heading', { name: title }).waitFor();
    await page.getByRole('radio', { name: 'New' }).focus();
    // The group takes focus in a render of its own: the key goes once the chosen sort has it, as a person's would.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-checked')), SHOWN)
      .toBe('true');
    // Held as a person holds a key: Radix moves focus (and so the choice) a task after the keydown.
    await page.keyboard.press('ArrowRight', { delay: 80 });
    const chosen = () =>
      page.evaluate(() => document.querySelector('[role=radio][aria-checked=true]')?.textContent);
    await expect.poll(chosen, SHOWN).toBe('Top this week');
    // The sort is in the address, so the list can be shared.
    await expect.poll(() => page.url(), SHOWN).toBe(`${baseUrl}/gallery?sort=top-week`);
    await page.getByRole('heading', { name: title }).waitFor();
    await expectNoSeriousViolations(page, 'the gallery, top this week');

    // Unliked, it leaves the Liked tab.
    await page
      .getByRole('button', { name: `Like ${title}` })
      .first()
      .click();
    await expect
      .poll(
        () =>
          page
            .getByRole('button', { name: `Like ${title}` })
            .first()
            .getAttribute('aria-pressed'),
        SHOWN,
      )
      .toBe('false');
    await page.goto(`${baseUrl}/library?tab=liked`);
    await page.getByText('No liked tracks yet. Like a track in the gallery and it appears here.').waitFor();
    await context.close();
  });
});
