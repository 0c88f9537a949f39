import { DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import type { Browser, Locator, Page } from 'playwright-core';
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

const password = 'studio maker 1';
const GENERATION_MS = 90_000;
/** Plays the one player inside `scope` and waits for its time to move. */
async function expectPlays(scope: Locator): Promise<void> {
  await scope.getByRole('button', { name: /^Play / }).click();
  const audio = scope.locator('audio');
  // Playing, or (a 5 s track on a slow machine) already played to its end: either way its time moved.
  await expect
    .poll(
      async () =>
        audio.evaluate(
          (element: HTMLAudioElement) => element.currentTime > 0 && (!element.paused || element.ended),
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** The length of the audio a player holds, once its metadata has loaded. */
async function audioSeconds(scope: Locator): Promise<number> {
  const audio = scope.locator('audio');
  await expect
    .poll(async () => audio.evaluate((element: HTMLAudioElement) => element.duration || 0), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
  return audio.evaluate((element: HTMLAudioElement) => element.duration);
}

/** The signed-in user's tracks, as the library reads them. */
const myTracks = (page: Page) =>
  page.evaluate(async () => {
    const answer = await fetch('/api/my-generations', { credentials: 'include' });
    return (await answer.json()) as Track[];
  });

describe('the studio', () => {
  it('extends a track by typed seconds, repaints a section dragged on the waveform, makes a variation; each plays and the family shows', {
    timeout: 300_000,
  }, async () => {
    const email = `studio-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);

    // A first track, as short as a track can be.
    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('Genre Tags').fill('synthwave, energetic');
    await panel.getByLabel('Title (optional)').fill('Dawn Run');
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

    // Each studio dialog opens from the library card's More menu, says what it costs, fits the phone,
    // passes axe, and gives focus back to More when cancelled.
    await page.goto(`${baseUrl}/library`);
    const original = page.getByRole('article', { name: 'Dawn Run' }).first();
    const more = original.getByRole('button', { name: 'More' });
    const dialogs = [
      { item: 'Extend', role: 'dialog', action: 'Extend' },
      { item: 'Repaint section', role: 'dialog', action: 'Repaint' },
      { item: 'Make variation', role: 'alertdialog', action: 'Make Variation' },
    ] as const;
    for (const { item, role, action } of dialogs) {
      await more.click();
      await page.getByRole('menuitem', { name: item }).click();
      const dialog = page.getByRole(role, { name: item });
      await dialog.getByText('Uses 1 of your 5 generations this week.', { exact: false }).waitFor();
      await dialog.getByText('The original stays as it is.', { exact: false }).waitFor();
      await expectFitsPhone(dialog, dialog.getByRole('button', { name: action, exact: true }));
      await expectNoSeriousViolations(page, `the ${item} dialog`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => more.evaluate((button) => button === document.activeElement)).toBe(true);
    }

    // Extend it, typing the seconds. Too few are refused with the range the hint gives (the 5 s track
    // has room for 235 more), and the arrow keys choose where the music goes, as in any radio group.
    await more.click();
    await page.getByRole('menuitem', { name: 'Extend' }).click();
    const extend = page.getByRole('dialog', { name: 'Extend' });
    await extend.getByText('From 5 to 235 seconds (a track is at most 240 seconds long).').waitFor();
    await extend.getByLabel('Seconds to add').fill('3');
    await extend.getByRole('button', { name: 'Extend' }).click();
    await extend.getByText('Extend by a whole number of seconds from 5 to 235.').waitFor();
    const atEnd = extend.getByRole('radio', { name: 'At the end' });
    const atStart = extend.getByRole('radio', { name: 'At the start' });
    await atEnd.focus();
    // A key held as a person holds it: the option under focus is chosen while the key is down.
    await page.keyboard.down('ArrowRight');
    await expect.poll(() => atStart.getAttribute('aria-checked')).toBe('true');
    await page.keyboard.up('ArrowRight');
    expect(await atStart.evaluate((radio) => radio === document.activeElement)).toBe(true);
    await page.keyboard.down('ArrowLeft');
    await expect.poll(() => atEnd.getAttribute('aria-checked')).toBe('true');
    await page.keyboard.up('ArrowLeft');
    await extend.getByLabel('Seconds to add').fill('5');
    await extend
      .getByText('A new track, 5 seconds longer, is made from this one. The original stays as it is.')
      .waitFor();
    await extend.getByRole('button', { name: 'Extend' }).click();
    await toast(page, 'Extension started').waitFor();
    await extend.waitFor({ state: 'detached' });

    // The extension shows under its first track as it generates, then plays, 5 seconds longer. The
    // card the dialog came from moved into the group: focus is on the new version's card, not lost.
    const versions = page.getByRole('list', { name: '1 version of Dawn Run' });
    const extension = versions.getByRole('article').filter({ hasText: 'Extended by 5 s at the end' });
    await expect
      .poll(() =>
        extension.evaluate(
          (card) => card.contains(document.activeElement) && document.activeElement?.tagName,
        ),
      )
      .toMatch(/^H[1-6]$/);
    await extension.getByText('Completed').waitFor({ timeout: GENERATION_MS });
    expect(Math.abs((await audioSeconds(extension)) - 2 * DURATION_MIN_SECONDS)).toBeLessThanOrEqual(0.5);
    await expectPlays(extension);
    await expectNoSeriousViolations(page, 'the library with a version');

    // Repaint a section from the original's page, dragging across its waveform.
    const root = (await myTracks(page)).find((track) => track.parentId === null);
    if (!root) throw new Error('the original track is missing');
    await page.goto(`${baseUrl}/track/${root.id}`);
    await page.getByRole('button', { name: 'Repaint section' }).click();
    const repaint = page.getByRole('dialog', { name: 'Repaint section' });
    const waveform = repaint.getByRole('figure', { name: /^Waveform of Dawn Run/ });
    // The waveform is drawn from the track's peaks (wavesurfer renders into a canvas in its shadow root).
    await expect
      .poll(
        () =>
          waveform
            .locator('canvas')
            .evaluateAll((canvases) => canvases.some((c) => c instanceof HTMLCanvasElement && c.width > 0)),
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
    const box = await waveform.locator('canvas').first().boundingBox();
    if (!box) throw new Error('the waveform has no box');
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.5, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.9, y, { steps: 12 });
    await page.mouse.up();
    // The drag, away from the section the dialog starts with, is the new section: about 2.5 s to 4.5 s
    // of the 5 s track, shown in the typed fields too.
    const typed = async () => ({
      start: Number(await repaint.getByLabel('Start (seconds)').inputValue()),
      end: Number(await repaint.getByLabel('End (seconds)').inputValue()),
    });
    await expect.poll(async () => (await typed()).end).toBeGreaterThan(4);
    const dragged = await typed();
    expect(dragged.start).toBeGreaterThan(2);
    expect(dragged.start).toBeLessThan(3);
    expect(dragged.end).toBeLessThanOrEqual(5);
    await repaint.getByRole('button', { name: 'Repaint' }).click();

    // The new track's page follows it, then plays it; it names where it came from. The page the
    // dialog was on is gone: focus is on the new page's heading.
    await toast(page, 'Repaint started').waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/track/') && !url.pathname.endsWith(root.id));
    await expect
      .poll(() =>
        page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`),
      )
      .toBe('H1 Dawn Run');
    const repaintedPage = page.getByRole('main');
    await repaintedPage.getByRole('button', { name: /^Play / }).waitFor({ timeout: GENERATION_MS });
    expect(Math.abs((await audioSeconds(repaintedPage)) - DURATION_MIN_SECONDS)).toBeLessThanOrEqual(0.5);
    await expectPlays(repaintedPage);
    const repaintedFrom = page.getByRole('link', { name: 'Dawn Run' });
    expect(await repaintedFrom.evaluate((link) => link.parentElement?.textContent)).toBe(
      'Repainted from Dawn Run',
    );

    // Make a variation of the original.
    await repaintedFrom.click();
    await page.waitForURL(`${baseUrl}/track/${root.id}`);
    await page.getByRole('button', { name: 'Make variation' }).click();
    const variation = page.getByRole('alertdialog', { name: 'Make variation' });
    await variation.getByRole('button', { name: 'Make Variation' }).click();
    await toast(page, 'Variation started').waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/track/') && !url.pathname.endsWith(root.id));
    // The original's page, with a player of the same name, stays on screen until the variation's loads.
    await page.getByText(/^Variation of /).waitFor();
    await repaintedPage.getByRole('button', { name: /^Play / }).waitFor({ timeout: GENERATION_MS });
    await expectPlays(repaintedPage);
    expect(
      await page.getByRole('link', { name: 'Dawn Run' }).evaluate((link) => link.parentElement?.textContent),
    ).toBe('Variation of Dawn Run');

    // An extension the provider fails: its page says so, and the original lists it as failed.
    await page.goto(`${baseUrl}/track/${root.id}`);
    await page.getByRole('button', { name: 'Extend', exact: true }).click();
    const failing = page.getByRole('dialog', { name: 'Extend' });
    await failing.getByLabel('Tags').fill('synthwave, fail:provider');
    await failing.getByRole('button', { name: 'Extend' }).click();
    await toast(page, 'Extension started').waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/track/') && !url.pathname.endsWith(root.id));
    await page.getByText('Track generation failed').waitFor({ timeout: GENERATION_MS });

    // The original names its versions, each by a name of its own (they share its title) and a
    // target of at least 24 px, the failed one as failed. Its owner has Download (here, on the free
    // plan, Upgrade to Download).
    await page.goto(`${baseUrl}/track/${root.id}`);
    const children = page.getByRole('list', { name: 'Made from this track' });
    await children.waitFor();
    const links = children.getByRole('link');
    const names = await links.evaluateAll((all) =>
      all.map((link) => link.textContent?.replace(/\s+/g, ' ').trim()),
    );
    expect([...names].sort()).toEqual([
      'Dawn Run (Extension 1)',
      'Dawn Run (Extension 2) Failed',
      'Dawn Run (Repaint)',
      'Dawn Run (Variation)',
    ]);
    for (const name of names) {
      const box = await children.getByRole('link', { name: name as string, exact: true }).boundingBox();
      expect(box?.height, name).toBeGreaterThanOrEqual(24);
    }
    const upgrade = page.getByRole('link', { name: 'Upgrade to Download' });
    expect(await upgrade.getAttribute('href')).toBe('/pricing');
    await expectNoSeriousViolations(page, 'a track page with its versions');

    // The failed extension gave its unit back; one more variation uses the week's fifth. Then the
    // dialogs say none are left and offer the plans, not the action.
    await page.getByRole('button', { name: 'Make variation' }).click();
    await page
      .getByRole('alertdialog', { name: 'Make variation' })
      .getByRole('button', { name: 'Make Variation' })
      .click();
    await toast(page, 'Variation started').waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/track/') && !url.pathname.endsWith(root.id));
    await page.goto(`${baseUrl}/track/${root.id}`);
    await page.getByRole('button', { name: 'Repaint section' }).click();
    const spent = page.getByRole('dialog', { name: 'Repaint section' });
    await spent.getByText('You have none left', { exact: false }).waitFor();
    expect(await spent.getByRole('button', { name: 'Repaint', exact: true }).count()).toBe(0);
    expect(await spent.getByRole('link', { name: 'See Plans' }).getAttribute('href')).toBe('/pricing');
    await expectNoSeriousViolations(page, 'a studio dialog with none of the week left');
    await context.close();
  });
});
