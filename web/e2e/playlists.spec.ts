import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, toast, verifiedUser } from './people';
import { PHONE } from './phone';

// A playlist built from the tracks' menus in the library, opened at /playlist/{id} and played through:
// Play All starts the first track, the next starts when one ends, and Next and Previous move along,
// the track now playing announced.

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'playlist builder 1';
const GENERATION_MS = 90_000;
const POLL = { timeout: 30_000, interval: 200 };

/** Starts a short public track with the page's session and waits until it is completed; returns its id. */
async function completedTrack(page: Page, title: string): Promise<string> {
  const started = await page.request.post(`${baseUrl}/api/generate-text-to-music`, {
    headers: { origin: baseUrl },
    data: { tags: 'ambient, calm', lyrics: '', duration: 10, title, visibility: 'public' },
  });
  expect(started.status()).toBe(201);
  const { generationId } = (await started.json()) as { generationId: string };
  await expect
    .poll(
      async () => {
        const status = await page.request.get(`${baseUrl}/api/generation/${generationId}/status`);
        return ((await status.json()) as { status: string }).status;
      },
      { timeout: GENERATION_MS, interval: 500 },
    )
    .toBe('completed');
  return generationId;
}

/** Which of the page's players is playing, by position (-1: none). */
const playingIndex = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll('audio')).findIndex((audio) => !audio.paused));

describe('playlists', () => {
  it('are built from track menus, opened by their link and played through with Next and Previous', async () => {
    const email = `playlists-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);
    const [first, second] = await Promise.all([
      completedTrack(page, 'Morning Tide'),
      completedTrack(page, 'Evening Glow'),
    ]);

    // From the library: the first track goes into a new playlist, the second into that one.
    await page.goto(`${baseUrl}/library`);
    const tideCard = page.getByRole('article', { name: 'Morning Tide' });
    await tideCard.getByRole('button', { name: 'Add to Playlist' }).click();
    await page.getByRole('menuitem', { name: 'New Playlist…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New playlist' });
    await dialog.getByLabel('Title').fill('Tides and Glows');
    await dialog.getByLabel('Description (optional)').fill('From dawn to dusk');
    await dialog.getByRole('button', { name: 'Create Playlist' }).click();
    await toast(page, 'Morning Tide is in Tides and Glows.').waitFor(POLL);

    // By keyboard this time: the menu opens with Enter and its items are chosen with the arrows.
    const glowMenu = page
      .getByRole('article', { name: 'Evening Glow' })
      .getByRole('button', { name: 'Add to Playlist' });
    await glowMenu.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Tides and Glows' }).waitFor();
    await page.getByRole('menuitem', { name: 'Tides and Glows' }).focus();
    await page.keyboard.press('Enter');
    await toast(page, 'Evening Glow is in Tides and Glows.').waitFor(POLL);
    // The menu has closed and focus is back on the button that opened it.
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await glowMenu.evaluate((button) => button === document.activeElement)).toBe(true);

    // The Playlists tab lists it; its link opens the page.
    await page.getByRole('tab', { name: 'Playlists' }).click();
    const link = page.getByRole('link', { name: 'Tides and Glows' });
    await link.waitFor();
    await page.getByText('Public', { exact: true }).waitFor(POLL);
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/playlist\/[A-Za-z0-9-]+$/);

    // A visitor opens the shared link.
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${baseUrl}${href}`);
    await visitor.getByRole('heading', { level: 1, name: 'Tides and Glows' }).waitFor();
    expect(await visitor.getByText('From dawn to dusk').isVisible()).toBe(true);
    expect(await visitor.getByText('2 tracks').isVisible()).toBe(true);
    const tracks = visitor.getByRole('list', { name: 'Tracks' });
    expect(await tracks.getByRole('link').allTextContents()).toEqual(['Morning Tide', 'Evening Glow']);
    expect(
      await visitor.evaluate(() =>
        Array.from(document.querySelectorAll('audio')).map((a) => a.src.includes('/')),
      ),
    ).toEqual([true, true]);
    await expectNoSeriousViolations(visitor);

    const controls = visitor.getByRole('group', { name: 'Playlist controls' });
    const announced = controls.locator('[aria-live="polite"]');
    await controls.getByRole('button', { name: 'Play All' }).click();
    await expect.poll(() => announced.textContent(), POLL).toBe('Now playing 1 of 2: Morning Tide');
    await expect.poll(() => playingIndex(visitor), POLL).toBe(0);

    // Near its end, the first track runs out and the second starts.
    await expect
      .poll(() => visitor.evaluate(() => Number.isFinite(document.querySelector('audio')?.duration)), POLL)
      .toBe(true);
    await visitor.evaluate(() => {
      const audio = document.querySelector('audio') as HTMLAudioElement;
      audio.currentTime = Math.max(0, audio.duration - 0.3);
    });
    await expect.poll(() => announced.textContent(), POLL).toBe('Now playing 2 of 2: Evening Glow');
    await expect.poll(() => playingIndex(visitor), POLL).toBe(1);

    // Previous by keyboard, then Next.
    await controls.getByRole('button', { name: /Previous/ }).focus();
    await visitor.keyboard.press('Enter');
    await expect.poll(() => announced.textContent(), POLL).toBe('Now playing 1 of 2: Morning Tide');
    await expect.poll(() => playingIndex(visitor), POLL).toBe(0);
    await controls.getByRole('button', { name: /Next/ }).click();
    await expect.poll(() => announced.textContent(), POLL).toBe('Now playing 2 of 2: Evening Glow');
    await expect.poll(() => playingIndex(visitor), POLL).toBe(1);
    await controls.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => playingIndex(visitor), POLL).toBe(-1);

    // On a phone the page has nothing to scroll sideways, and its controls stay on screen.
    await visitor.setViewportSize(PHONE);
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    const box = await controls.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= PHONE.width).toBe(true);

    // The ids the page shows are the tracks made, in the order added.
    const answer = await visitor.request.get(`${baseUrl}/api${href.replace('/playlist/', '/playlists/')}`);
    expect(((await answer.json()) as { tracks: { id: string }[] }).tracks.map((t) => t.id)).toEqual([
      first,
      second,
    ]);
    await context.close();
  }, 240_000);
});
