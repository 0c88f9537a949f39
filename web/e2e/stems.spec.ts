import { DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import type { Browser } from 'playwright-core';
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

const password = 'stem splitter 1';
const GENERATION_MS = 90_000;

describe('stems', () => {
  it('separates a track into stems on its page, on a phone, solos the vocals and plays them in place of the mix', {
    timeout: 300_000,
  }, async () => {
    const email = `stems-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);

    // A track with words, as short as a track can be.
    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('Genre Tags').fill('pop, upbeat');
    await panel.getByLabel('Title (optional)').fill('Split Song');
    const duration = panel.getByRole('slider', { name: 'Duration' });
    await expect
      .poll(async () => {
        await duration.focus();
        await page.keyboard.press('Home');
        return duration.inputValue();
      })
      .toBe(String(DURATION_MIN_SECONDS));
    await panel.getByRole('button', { name: 'Generate Music' }).click();
    await toast(page, 'Music Generated!').waitFor({ timeout: GENERATION_MS });
    const tracks = await page.evaluate(async () => {
      const answer = await fetch('/api/my-generations', { credentials: 'include' });
      return (await answer.json()) as Track[];
    });
    const track = tracks.find((made) => made.title === 'Split Song') as Track;

    // Every stem source the page starts, with the context time it starts at and where in its audio.
    await context.addInitScript(() => {
      const starts: { when: number; offset: number }[] = [];
      (window as unknown as { stemStarts: typeof starts }).stemStarts = starts;
      const start = AudioBufferSourceNode.prototype.start;
      AudioBufferSourceNode.prototype.start = function (when?: number, offset?: number, duration?: number) {
        starts.push({ when: when ?? 0, offset: offset ?? 0 });
        return start.call(this, when, offset, duration);
      };
    });
    const stemStarts = () =>
      page.evaluate(
        () => (window as unknown as { stemStarts: { when: number; offset: number }[] }).stemStarts,
      );

    // Separate stems says what it costs before anything is spent.
    await page.goto(`${baseUrl}/track/${track.id}`);
    await page.getByRole('button', { name: 'Separate stems' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Separate stems' });
    await dialog.getByText('Uses 1 of your 5 generations this week.', { exact: false }).waitFor();
    await dialog.getByText('Vocals, drums, bass and other.').waitFor();
    await expectFitsPhone(dialog, dialog.getByRole('button', { name: 'Separate' }));
    await expectNoSeriousViolations(page, 'the Separate stems dialog');
    await dialog.getByRole('button', { name: 'Separate' }).click();
    await toast(page, 'Separating stems').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The page follows the separation, then shows the stems under the player.
    const stems = page.getByRole('region', { name: 'Stems' });
    await stems.getByRole('button', { name: 'Mute vocals' }).waitFor({ timeout: GENERATION_MS });
    for (const name of ['vocals', 'drums', 'bass', 'other']) {
      await stems.getByRole('button', { name: `Solo ${name}` }).waitFor();
    }
    await stems.getByRole('slider', { name: 'Bass volume' }).waitFor();
    // The Free plan does not download stems: it is offered the upgrade.
    await stems.getByRole('link', { name: 'Upgrade to Download Stems' }).waitFor();
    await expectNoSeriousViolations(page, "the track page's stems");
    // On a phone, every stem's controls fit across the screen.
    const box = await stems.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await stems.evaluate((section) => section.scrollWidth <= section.clientWidth)).toBe(true);

    // Solo the vocals from the keyboard, then play: the stems load and sound in place of the track's own
    // audio, which keeps the time (and stays silent).
    await stems.getByRole('button', { name: 'Solo vocals' }).focus();
    await page.keyboard.press('Space');
    expect(await stems.getByRole('button', { name: 'Solo vocals' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.getByRole('button', { name: 'Play Split Song' }).click();
    const audio = page.locator('audio');
    await expect
      .poll(() => audio.evaluate((element: HTMLAudioElement) => element.muted), { timeout: 30_000 })
      .toBe(true);
    await expect
      .poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime > 0 || element.ended), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await stems.getByText('The stems could not be loaded', { exact: false }).count()).toBe(0);
    // The four stems started together: one context time, one place in the track.
    await expect.poll(async () => (await stemStarts()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    const first = (await stemStarts()).slice(0, 4);
    expect(new Set(first.map((start) => start.when)).size).toBe(1);
    expect(new Set(first.map((start) => start.offset)).size).toBe(1);

    // Played out, then sought back to the start from the waveform's keys and played again: the stems
    // start together from there.
    await expect
      .poll(() => audio.evaluate((element: HTMLAudioElement) => element.ended), { timeout: 15_000 })
      .toBe(true);
    await page.getByRole('slider', { name: 'Seek Split Song' }).focus();
    await page.keyboard.press('Home');
    const before = (await stemStarts()).length;
    await page.getByRole('button', { name: 'Play Split Song' }).click();
    await expect
      .poll(async () => (await stemStarts()).length, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(before + 4);
    const again = (await stemStarts()).slice(before, before + 4);
    expect(new Set(again.map((start) => start.when)).size).toBe(1);
    expect(again.every((start) => start.offset === again[0]?.offset && start.offset < 0.5)).toBe(true);
    await context.close();
  });
});
