import type { Track } from '@tunesmith/shared/tracks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser';
import { signIn, verifiedUser } from './people';
import { PHONE } from './phone';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const GENERATION_MS = 90_000;

/** Starts a generation (or a studio version) as the signed-in page and waits until it has finished. */
async function generate(page: Page, path: string, body: unknown): Promise<string> {
  const started = await page.request.post(`${baseUrl}${path}`, { headers: { origin: baseUrl }, data: body });
  expect(started.status(), await started.text()).toBe(201);
  const id = ((await started.json()) as { generationId: string }).generationId;
  const deadline = Date.now() + GENERATION_MS;
  for (;;) {
    const status = await page.request.get(`${baseUrl}/api/generation/${id}/status`);
    const { status: now } = (await status.json()) as { status: string };
    if (now === 'completed') break;
    if (now === 'failed' || Date.now() > deadline) throw new Error(`generation ${id} is ${now}`);
    await new Promise((resume) => setTimeout(resume, 500));
  }
  return id;
}

/** Resolves once the app has taken the page over and nothing on it is loading or still being drawn. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.querySelector('[data-frame-disabled], [data-frame-style], [aria-busy="true"]'),
  );
  // Two frames, so what the last render changed is laid out and reported.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Watches where `landmarks` (name → an expression, run in the page, that finds the element) are
 * from the first frame the document shows (before any script of the page runs) until `ready`
 * resolves, one measure per animation frame. Answers the landmarks missing from the first frame,
 * and how far each of the others moved at most (px).
 */
async function landmarkDrift(
  page: Page,
  path: string,
  landmarks: Record<string, string>,
  ready: () => Promise<void>,
): Promise<{ missing: string[]; moved: Record<string, number> }> {
  await page.addInitScript((finders: Record<string, string>) => {
    const find = Object.entries(finders).map(
      ([name, body]) => [name, new Function(`return (${body})`) as () => Element | undefined] as const,
    );
    const state = {
      first: {} as Record<string, number>,
      missing: [] as string[],
      moved: {} as Record<string, number>,
      stop: false,
    };
    (window as unknown as { landmarks: typeof state }).landmarks = state;
    const top = (element: Element) => element.getBoundingClientRect().top + window.scrollY;
    const measure = () => {
      for (const [name, finder] of find) {
        const from = state.first[name];
        const element = finder();
        if (from === undefined || !element) continue;
        state.moved[name] = Math.max(state.moved[name] ?? 0, Math.abs(top(element) - from));
      }
    };
    document.addEventListener('DOMContentLoaded', () => {
      for (const [name, finder] of find) {
        const element = finder();
        if (element) state.first[name] = top(element);
        else state.missing.push(name);
      }
      const frame = () => {
        measure();
        if (!state.stop) requestAnimationFrame(frame);
      };
      frame();
    });
  }, landmarks);
  await page.goto(`${baseUrl}${path}`);
  await ready();
  return page.evaluate(() => {
    const state = (
      window as unknown as {
        landmarks: { missing: string[]; moved: Record<string, number>; stop: boolean };
      }
    ).landmarks;
    state.stop = true;
    return { missing: state.missing, moved: state.moved };
  });
}

/** Finders for landmarks (run in the page): an element by its tag and exact text. */
const byText = (selector: string, text: string) =>
  `[...document.querySelectorAll(${JSON.stringify(selector)})].find((e) => e.textContent.trim() === ${JSON.stringify(text)})`;

/** A couple of pixels of rounding; anything more is a jump a reader sees. */
const STEADY_PX = 2;

describe("a visitor's pages stay where they first painted", () => {
  let creator: BrowserContext;
  let parentId: string;
  let gallerySource: Track;

  beforeAll(async () => {
    const email = `steady-${Date.now().toString(36)}@example.com`;
    const password = 'steady pages 1';
    await verifiedUser(baseUrl, { email, password });
    creator = await browser.newContext();
    const page = await creator.newPage();
    await signIn(page, baseUrl, email, password);
    parentId = await generate(page, '/api/generate-text-to-music', {
      tags: 'ambient, harbour',
      lyrics: 'Lights along the harbour\nSlowly fade to blue',
      duration: 10,
      title: 'Harbour Lights',
      visibility: 'public',
    });
    // A version made from it: the parent's page lists it under "Versions", which the share document does not know.
    await generate(page, `/api/generation/${parentId}/variation`, {});
    gallerySource = (await (await page.request.get(`${baseUrl}/api/track/${parentId}`)).json()) as Track;
  }, 4 * GENERATION_MS);

  afterAll(async () => {
    await creator?.close();
  });

  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`a shared track with a version and a waveform, on a ${name}`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const found = await landmarkDrift(
        page,
        `/track/${parentId}`,
        {
          heading: "document.querySelector('main h1')",
          player: 'document.querySelector(\'main button[aria-label^="Play "]\')',
          tags: byText('main dt', 'Tags'),
          created: byText('main dt', 'Created'),
          lyrics: byText('main h2', 'Lyrics'),
          about: byText('main h2', 'About this track'),
        },
        async () => {
          await page.getByRole('heading', { name: 'Versions' }).waitFor();
          // The waveform has replaced the slider.
          await page
            .getByRole('slider', { name: /^Seek / })
            .and(page.locator(':not(input)'))
            .waitFor();
          await settled(page);
        },
      );
      // Every landmark was in the first frame, and none has moved.
      expect(found.missing).toEqual([]);
      expect(Object.keys(found.moved)).toHaveLength(6);
      for (const [landmark, px] of Object.entries(found.moved))
        expect([landmark, px <= STEADY_PX]).toEqual([landmark, true]);
      await context.close();
    });

    it(`the pricing page, its plans arriving, on a ${name}`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const found = await landmarkDrift(
        page,
        '/pricing',
        { heading: "document.querySelector('main h1')", plans: "document.querySelector('main .grid')" },
        async () => {
          await page.getByRole('article', { name: 'Basic' }).waitFor();
          await settled(page);
        },
      );
      expect(found.missing).toEqual([]);
      expect(Object.keys(found.moved)).toHaveLength(2);
      for (const [landmark, px] of Object.entries(found.moved))
        expect([landmark, px <= STEADY_PX]).toEqual([landmark, true]);
      await context.close();
    });
  }

  /** The layout shift a visitor measures on the home page, with `count` public tracks. */
  async function homeShift(count: number, viewport: { width: number; height: number }): Promise<number> {
    const phone = viewport === PHONE;
    const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
    const page = await context.newPage();
    const tracks = Array.from({ length: count }, (_, i) => ({
      ...gallerySource,
      id: `${gallerySource.id}-${i}`,
      title: `Harbour Lights ${i + 1}`,
    }));
    await page.route('**/api/public-tracks', (route) => route.fulfill({ json: tracks }));
    await page.addInitScript(() => {
      const state = { shift: 0 };
      (window as unknown as { layoutShift: typeof state }).layoutShift = state;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!entry.hadRecentInput) state.shift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(baseUrl);
    if (count > 0) await page.getByRole('heading', { name: 'Community Gallery' }).waitFor();
    await settled(page);
    const shift = await page.evaluate(
      () => (window as unknown as { layoutShift: { shift: number } }).layoutShift.shift,
    );
    await context.close();
    return shift;
  }

  // The gallery's size is known only once it answers (none on a new site, up to a page of 24).
  for (const count of [0, 1, 3, 24]) {
    it(`the home page with ${count} public tracks shifts no more than 0.05, on a phone and a desktop`, async () => {
      expect(await homeShift(count, PHONE)).toBeLessThanOrEqual(0.05);
      expect(await homeShift(count, DESKTOP)).toBeLessThanOrEqual(0.05);
    });
  }
});
