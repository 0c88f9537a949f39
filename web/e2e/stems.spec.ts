import { DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import type { Browser, Locator } from 'playwright-core';
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
    const separateStems = page.getByRole('button', { name: 'Separate stems' });
    const focusIsOn = (target: Locator) => target.evaluate((element) => element === document.activeElement);
    await separateStems.click();
    const dialog = page.getByRole('alertdialog', { name: 'Separate stems' });
    await dialog.getByText('Uses 1 of your 5 generations this week.', { exact: false }).waitFor();
    await dialog.getByText('Vocals, drums, bass and other.').waitFor();
    // The Free plan separates into 4 stems (the seed): 6 is shown, cannot be chosen, and says which plans
    // have it, with a way to them.
    const four = dialog.getByRole('radio', { name: '4 stems' });
    const six = dialog.getByRole('radio', { name: '6 stems' });
    expect(await six.isDisabled()).toBe(true);
    const reason = dialog.getByText('6 stems are for the Basic and Premium plans.', { exact: false });
    await reason.waitFor();
    expect(await reason.getByRole('link', { name: 'See Plans' }).getAttribute('href')).toBe('/pricing');
    await four.focus();
    await page.keyboard.press('ArrowRight');
    expect(await four.getAttribute('aria-checked')).toBe('true');
    expect(await six.getAttribute('aria-checked')).toBe('false');
    await expectFitsPhone(dialog, dialog.getByRole('button', { name: 'Separate' }));
    await expectNoSeriousViolations(page, 'the Separate stems dialog');
    // Cancelled, the dialog gives focus back to the button that opened it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusIsOn(separateStems)).toBe(true);

    // Opened again from the keyboard and started: focus comes back to the button all the same.
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Separate' }).click();
    await toast(page, 'Separating stems').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusIsOn(separateStems)).toBe(true);

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
    // On a phone, every stem's controls fit across the screen, the page does not scroll sideways, and
    // each control is a target of at least 24 by 24 px (WCAG 2.5.8).
    const box = await stems.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await stems.evaluate((section) => section.scrollWidth <= section.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const targets = await stems.locator('button, input, a').evaluateAll((elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        return {
          name: element.getAttribute('aria-label') ?? element.textContent,
          width: rect.width,
          height: rect.height,
          right: rect.right,
        };
      }),
    );
    // Mute, Solo and a volume per stem, and the upgrade.
    expect(targets).toHaveLength(4 * 3 + 1);
    for (const target of targets) {
      expect(target, `${target.name}`).toMatchObject({
        width: expect.toSatisfy((width: number) => width >= 24),
        height: expect.toSatisfy((height: number) => height >= 24),
        right: expect.toSatisfy((right: number) => right <= PHONE.width),
      });
    }

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
