import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, verifiedUser } from './people';
import { PHONE } from './phone';

// A sung track's page follows its lyrics: they are timed after the track plays (the embedded provider's
// fal-ai/whisper and the alignment), the list replaces the text, a line seeks the player, the playing
// line is marked current.

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'lyric follower 1';
const POLL = { timeout: 30_000, interval: 200 };
// The bridge is a line longer than a phone is wide, with a word longer than its lyrics box.
const LONG_LINE =
  'We were running through the neon city lights until the morning found us waiting by the water, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaah';
const LYRICS = `[verse]\nHolding on to the summer light\nRunning through the city night\n[chorus]\nWe keep on chasing\n[bridge]\n${LONG_LINE}`;

async function sungTrack(page: Page, title: string): Promise<string> {
  const started = await page.request.post(`${baseUrl}/api/generate-text-to-music`, {
    headers: { origin: baseUrl },
    data: { tags: 'pop, female vocals', lyrics: LYRICS, duration: 20, title, visibility: 'public' },
  });
  expect(started.status()).toBe(201);
  const { generationId } = (await started.json()) as { generationId: string };
  await expect
    .poll(async () => (await page.request.get(`${baseUrl}/api/track/${generationId}/lyrics`)).status(), {
      timeout: 120_000,
      interval: 500,
    })
    .toBe(200);
  return generationId;
}

const audioTime = (page: Page) => page.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);

describe('the lyrics view', () => {
  it('shows the timed lines, seeks the player to a chosen line and marks the line being sung', async () => {
    const email = `lyrics-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);
    const id = await sungTrack(page, 'Summer Light');
    const timed = (await (await page.request.get(`${baseUrl}/api/track/${id}/lyrics`)).json()) as {
      lines: Array<{ start: number; text: string }>;
    };

    await page.goto(`${baseUrl}/track/${id}`);
    await page.getByRole('heading', { name: 'Summer Light' }).waitFor();
    const lyrics = page.getByRole('list', { name: 'Lyrics' });
    await lyrics.waitFor(POLL);
    expect(await lyrics.getByRole('button').allTextContents()).toEqual(
      timed.lines.map((line) => expect.stringContaining(line.text)),
    );
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.readyState ?? 0), POLL)
      .toBeGreaterThan(0);

    // Choosing the chorus line moves the player there, and marks that line as the one being sung.
    const chorus = lyrics.getByRole('button', { name: /We keep on chasing/ });
    await chorus.click();
    const start = timed.lines[2]?.start ?? 0;
    await expect.poll(() => audioTime(page), POLL).toBeCloseTo(start, 0);
    await expect.poll(() => chorus.getAttribute('aria-current'), POLL).toBe('true');

    // By keyboard too: the first line, with Enter.
    const first = lyrics.getByRole('button', { name: /Holding on to the summer light/ });
    await first.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => audioTime(page), POLL).toBeCloseTo(timed.lines[0]?.start ?? 0, 0);
    await expect.poll(() => first.getAttribute('aria-current'), POLL).toBe('true');
    expect(await chorus.getAttribute('aria-current')).toBeNull();

    const lrc = page.getByRole('link', { name: 'Download lyrics (.lrc)' });
    expect(await lrc.getAttribute('href')).toBe(`/api/track/${id}/lyrics?format=lrc`);
    await expectNoSeriousViolations(page, 'track page with its lyrics in time');

    // On a phone the lines wrap inside their box: nothing runs off the side of the list or the page.
    await page.setViewportSize(PHONE);
    const bridge = lyrics.getByRole('button', { name: /We were running through the neon city lights/ });
    await bridge.scrollIntoViewIfNeeded();
    const fit = await lyrics.evaluate((list, phoneWidth) => {
      const box = list.getBoundingClientRect();
      const lines = [...list.querySelectorAll('button')].map((line) => line.getBoundingClientRect());
      return {
        listFits: list.scrollWidth <= list.clientWidth,
        pageFits: document.documentElement.scrollWidth <= phoneWidth,
        linesInside: lines.every((line) => line.left >= box.left && line.right <= box.right),
      };
    }, PHONE.width);
    expect(fit).toEqual({ listFits: true, pageFits: true, linesInside: true });
    // The bridge's words fill more than two rows of the line's own height (20 px), rather than one long row.
    const text = bridge.locator('span').last();
    const { height, lineHeight, overflows } = await text.evaluate((span) => ({
      height: span.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(getComputedStyle(span).lineHeight),
      overflows:
        span.getBoundingClientRect().right > (span.parentElement?.getBoundingClientRect().right ?? 0),
    }));
    expect(height).toBeGreaterThan(2 * lineHeight);
    expect(overflows).toBe(false);
    await context.close();
  });
});
