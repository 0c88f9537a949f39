import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { publicSettingKeys } from '@tunesmith/shared/settings';
import { formatDate } from '@tunesmith/shared/track-text';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../functions/src/data/keys';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { journeyAdmin, signIn, signInAdmin, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: cloudEnv.AWS_REGION,
    endpoint: cloudEnv.DYNAMODB_ENDPOINT,
    credentials: {
      accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID ?? 'local',
      secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY ?? 'local',
    },
  }),
);
const tableName = cloudEnv.TABLE_NAME as string;

/**
 * Runs `body` with the site's public settings at their defaults, as the frames are built
 * (another journey may have renamed the site), and puts them back after.
 */
async function withDefaultSite(body: () => Promise<void>): Promise<void> {
  const saved = await Promise.all(
    publicSettingKeys.map(
      async (name) =>
        (await documents.send(new GetCommand({ TableName: tableName, Key: keys.setting(name) }))).Item,
    ),
  );
  await Promise.all(
    publicSettingKeys.map((name) =>
      documents.send(new DeleteCommand({ TableName: tableName, Key: keys.setting(name) })),
    ),
  );
  try {
    await body();
  } finally {
    for (const item of saved)
      if (item) await documents.send(new PutCommand({ TableName: tableName, Item: item }));
  }
}
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

/** Clicks the cycle, as a person would, and waits for it to be the checked one. */
async function chooseCycle(label: string) {
  const cycle = page.getByRole('radio', { name: label });
  await cycle.click();
  expect(await cycle.getAttribute('aria-checked')).toBe('true');
}

/**
 * The scripts `page` loads from now on whose text carries the schema library (zod's classes,
 * its `_zod` internals and its English messages survive minification): pages without a form
 * must not load it.
 */
function schemaLibraryLoads(page: Page): () => Promise<string[]> {
  const loads: Promise<string | undefined>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    loads.push(
      response.text().then(
        (text) =>
          /ZodObject|\b_zod\b|Invalid input/.test(text) ? new URL(response.url()).pathname : undefined,
        () => undefined,
      ),
    );
  });
  return async () => (await Promise.all(loads)).filter((url): url is string => url !== undefined);
}

const price = (name: string) =>
  page
    .getByRole('article', { name })
    .locator('p')
    .filter({ hasText: /\$|Free/ })
    .first();

describe('a visitor browses the public pages', () => {
  it('goes from home to pricing, where the cycle toggle changes prices and shows savings', async () => {
    await page.goto(baseUrl);
    await page.getByRole('heading', { name: 'Create Music with AI' }).waitFor();
    // The gallery section is there exactly when public tracks exist (other journeys may have made some).
    // The hero is in the page's first frame, before the gallery has answered: wait for the gallery to settle.
    const publicTracks = (await (await fetch(`${baseUrl}/api/public-tracks`)).json()) as unknown[];
    if (publicTracks.length > 0) await page.getByRole('heading', { name: 'Community Gallery' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    expect(await page.getByRole('heading', { name: 'Community Gallery' }).count()).toBe(
      publicTracks.length > 0 ? 1 : 0,
    );
    await page.getByRole('heading', { name: 'Text to Music' }).waitFor();
    await expectNoSeriousViolations(page, 'home');

    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(`${baseUrl}/pricing`);
    await page.getByRole('article', { name: 'Basic' }).waitFor();
    expect(
      await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).getAttribute('aria-current'),
    ).toBe('page');
    await expectNoSeriousViolations(page, 'pricing');

    // The seeded plans, in order, Basic badged, Free shown as Free.
    const names = await page.getByRole('article').locator('h2').allTextContents();
    expect(names).toEqual(['Free', 'Basic', 'Premium']);
    expect(await page.getByRole('article', { name: 'Basic' }).getByText('Most Popular').isVisible()).toBe(
      true,
    );
    expect(await price('Free').textContent()).toContain('Free');

    await chooseCycle('Weekly');
    expect(await price('Basic').textContent()).toContain('$2.08');
    expect(await price('Premium').textContent()).toContain('$4.39');

    await chooseCycle('Monthly');
    expect(await price('Basic').textContent()).toContain('$9');
    expect(await price('Premium').textContent()).toContain('$19');

    await chooseCycle('Yearly');
    expect(await price('Basic').textContent()).toContain('$90');
    expect(await price('Premium').textContent()).toContain('$190');
    // round((1 - 90 / (9 * 12)) * 100) = 17 and round((1 - 190 / (19 * 12)) * 100) = 17
    expect(await page.getByRole('article', { name: 'Basic' }).getByText('Save 17%').isVisible()).toBe(true);
    expect(await page.getByRole('article', { name: 'Premium' }).getByText('Save 17%').isVisible()).toBe(true);

    // A visitor choosing a paid plan is sent to sign in.
    await page.getByRole('article', { name: 'Premium' }).getByRole('button').click();
    await page.waitForURL((url) => url.pathname === '/auth');
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    await expectNoSeriousViolations(page, 'auth, Sign In');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByRole('form', { name: 'Sign up' }).waitFor();
    await expectNoSeriousViolations(page, 'auth, Sign Up');

    // The legal pages, from the footer.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL(`${baseUrl}/privacy`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectNoSeriousViolations(page, 'privacy');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL(`${baseUrl}/terms`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectNoSeriousViolations(page, 'terms');
  });

  it('validates the contact form and confirms a sent message', async () => {
    await page.goto(`${baseUrl}/contact`);
    await page.getByRole('button', { name: 'Send Message' }).waitFor();
    await expectNoSeriousViolations(page, 'contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Name is required').waitFor();
    await expectNoSeriousViolations(page, 'contact, with errors');
    expect(await page.getByText('Please enter a valid email address').isVisible()).toBe(true);
    expect(await page.getByText('Subject is required').isVisible()).toBe(true);
    expect(await page.getByText('Message is required').isVisible()).toBe(true);

    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Subject').fill('Plans');
    await page.getByLabel('Message').fill('Do yearly plans renew automatically?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    expect(await page.getByText('Name is required').count()).toBe(0);

    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('button', { name: 'Sending...' }).waitFor();
    // exact: Radix Toast also announces the text in a live region, prefixed with "Notification".
    await page
      .getByText("Message sent successfully! We'll get back to you within 24 hours.", { exact: true })
      .waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    await expectNoSeriousViolations(page, 'contact, sent');
    expect(
      await page.getByText(/within 24 hours, Monday to Friday, 9 AM to 6 PM EST/).count(),
    ).toBeGreaterThan(0);
  });

  it('shows the sign-in form without scrolling on a phone', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${baseUrl}/auth`);
    const email = phone.getByRole('form', { name: 'Sign in' }).getByLabel('Email', { exact: true });
    await email.waitFor();
    const box = await email.boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await phone.evaluate(() => window.scrollY)).toBe(0);
    await expectNoSeriousViolations(phone, 'auth on a phone');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.getByRole('navigation', { name: 'Mobile' }).waitFor();
    await expectNoSeriousViolations(phone, 'auth on a phone, menu open');
    await phone.close();
  });

  it('shows the 404 page on an unknown path', async () => {
    const response = await page.goto(`${baseUrl}/no/such/page`);
    expect(response?.status()).toBe(200); // the SPA answers every page path; the router decides
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true);
    await expectNoSeriousViolations(page, '404');
  });

  it('answers an unknown API path with 404 JSON, not the SPA', async () => {
    const response = await page.request.get(`${baseUrl}/api/no-such-call`);
    expect(response.status()).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not found' });
  });
});

/** The prerendered pages and their headings. */
const FRAME_PAGES = [
  ['/', 'Create Music with AI'],
  ['/pricing', 'Choose Your Plan'],
  ['/auth', 'Your next song starts here'],
] as const;

describe("a visitor's first frame", () => {
  it('loads no schema library on the pages without a form', async () => {
    const context = await browser.newContext();
    try {
      for (const path of ['/', '/pricing']) {
        const visitor = await context.newPage();
        const schemaLibrary = schemaLibraryLoads(visitor);
        await visitor.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
        await visitor.waitForFunction(() => !document.querySelector('[data-frame-disabled]'));
        expect(await schemaLibrary(), path).toEqual([]);
        await visitor.close();
      }
    } finally {
      await context.close();
    }
  });

  it('shows each prerendered page before any script runs, its controls waiting for the app', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const still = await context.newPage();
      for (const [path, heading] of FRAME_PAGES) {
        await still.goto(`${baseUrl}${path}`);
        expect(await still.getByRole('heading', { level: 1, name: heading }).isVisible(), path).toBe(true);
        expect(await still.getByRole('banner').getByRole('link', { name: 'Pricing' }).isVisible(), path).toBe(
          true,
        );
        // The frame was built this year, and says so.
        expect(await still.getByRole('contentinfo').textContent(), path).toContain(
          `© ${new Date().getFullYear()} Tunesmith. All rights reserved.`,
        );
        // A part waiting for data the app would fetch (the gallery) shows no loading state that never ends.
        expect(
          await still
            .locator('[aria-busy="true"]')
            .evaluateAll((busy) => busy.filter((part) => getComputedStyle(part).display !== 'none').length),
          path,
        ).toBe(0);
      }
      // The sign-in form is there, its fields not yet usable: what is typed before the app runs is not lost.
      expect(await still.getByLabel('Email').isDisabled()).toBe(true);
      expect(await still.title()).toBe('Sign In / Sign Up | Tunesmith');
    } finally {
      await context.close();
    }
  });

  it('shows the plans and their prices on the pricing page without scripts, and follows the plans as they change', async () => {
    const still = await browser.newContext({ javaScriptEnabled: false });
    const admin = await browser.newContext();
    const adminUser = { username: `pricing-${Date.now().toString(36)}`, password: 'pricing admin 1' };
    await journeyAdmin(cloudEnv, adminUser);
    try {
      const page = await still.newPage();
      const noScriptPrice = (name: string) => page.getByRole('list', { name: `${name} prices` });
      await page.goto(`${baseUrl}/pricing`);
      for (const name of ['Free', 'Basic', 'Premium'])
        expect(await page.getByRole('article', { name }).isVisible(), name).toBe(true);
      expect(await noScriptPrice('Free').textContent()).toBe('Free');
      expect(await noScriptPrice('Basic').textContent()).toBe('$2.08/week$9/month$90/year Save 17%');
      expect(await noScriptPrice('Premium').textContent()).toBe('$4.39/week$19/month$190/year Save 17%');
      expect(await page.getByRole('list', { name: 'Premium features' }).textContent()).toContain(
        'Commercial license',
      );
      // Its loading state, which would never end, is not shown.
      expect(await page.getByText('Loading plans').isVisible()).toBe(false);

      // An administrator adds a plan: the page shows it at once; removed, it is gone.
      const adminPage = await admin.newPage();
      await signInAdmin(adminPage, baseUrl, adminUser);
      const name = `Studio ${Date.now().toString(36)}`;
      const created = await adminPage.request.post(`${baseUrl}/api/admin/plans`, {
        headers: { origin: baseUrl },
        data: {
          name,
          description: 'For studios.',
          features: ['300 songs a week'],
          weeklyPrice: 0,
          monthlyPrice: 49,
          yearlyPrice: 490,
          maxGenerations: 300,
          generationsNumber: 300,
          sortOrder: 9,
          isActive: true,
          commercialUse: false,
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      await page.goto(`${baseUrl}/pricing`);
      expect(await noScriptPrice(name).textContent()).toBe('$49/month$490/year Save 17%');
      const removed = await adminPage.request.delete(`${baseUrl}/api/admin/plans/${id}`, {
        headers: { origin: baseUrl },
      });
      expect(removed.status()).toBe(204);
      await page.goto(`${baseUrl}/pricing`);
      expect(await page.getByRole('article', { name }).count()).toBe(0);
      expect(await page.getByRole('article').count()).toBe(3);
    } finally {
      await still.close();
      await admin.close();
    }
  });

  it("starts the app in steps: the libraries' chunk, which runs React's own code, before the app's module", async () => {
    for (const [path] of FRAME_PAGES) {
      const html = await (await fetch(`${baseUrl}${path}`)).text();
      const steps = /<link rel="modulepreload"[^>]* data-app(?:="")? data-steps="([^"]+)"/.exec(html)?.[1];
      expect(steps, path).toMatch(/^\/assets\/libraries-[\w-]+\.js$/);
      // Named, not hinted: the frame's first paint shares the network with nothing else.
      expect(html, path).not.toContain(`href="${steps}"`);
    }
    // Run alone, on a frame whose loader is held back, the step's chunk starts React's renderer (which
    // announces itself to a devtools hook), and the app's module has not run: the frame is untouched.
    const context = await browser.newContext();
    try {
      const frame = await context.newPage();
      await frame.route('**/boot.js', (route) => route.abort());
      await frame.goto(`${baseUrl}/`);
      // A string, not a function: the test runner would rewrite a function's import() for Node.
      const started = await frame.evaluate(`(async () => {
        const renderers = [];
        window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
          supportsFiber: true,
          checkDCE: () => undefined,
          inject: (internals) => {
            renderers.push(internals.rendererPackageName ?? '?');
            return 1;
          },
        };
        await import(document.querySelector('link[data-app]')?.getAttribute('data-steps') ?? '');
        return { renderers, frameUntouched: !!document.querySelector('[data-frame-disabled]') };
      })()`);
      expect(started).toEqual({ renderers: ['react-dom'], frameUntouched: true });
    } finally {
      await context.close();
    }
  });

  it("hints the page's own chunks once the frame is on screen, and the app, finding them hinted, adds none", async () => {
    for (const [path] of FRAME_PAGES) {
      const html = await (await fetch(`${baseUrl}${path}`)).text();
      const page = /<link rel="modulepreload"[^>]* data-app(?:="")?[^>]* data-page="([^"]+)"/.exec(html)?.[1];
      const name = path === '/' ? 'home' : path.slice(1);
      expect(page?.split(' ')[0], path).toMatch(new RegExp(`^/assets/${name}-[\\w-]+\\.js$`));
    }
    const context = await browser.newContext();
    try {
      const visitor = await context.newPage();
      await visitor.goto(`${baseUrl}/pricing`);
      await visitor.waitForFunction(() => !document.querySelector('[data-frame-disabled]'));
      const links = await visitor.evaluate(() => {
        const named = (document.querySelector('link[data-app]')?.getAttribute('data-page') ?? '').split(' ');
        const hinted = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')];
        // The loader's links are at low priority; one the app added would not be.
        return named.map((href) =>
          hinted
            .filter((link) => link.href === new URL(href, location.href).href)
            .map((link) => link.fetchPriority)
            .join(' '),
        );
      });
      expect(links.length).toBeGreaterThan(1);
      expect(links.every((priorities) => priorities === 'low')).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('is taken over by the app in place: the same elements stay on screen, and the app then takes input', () =>
    withDefaultSite(async () => {
      const context = await browser.newContext();
      try {
        const live = await context.newPage();
        const warnings: string[] = [];
        live.on('console', (message) => {
          if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
        });
        // The frame's heading as parsed, before any of the app's code has run.
        await live.addInitScript(() => {
          document.addEventListener('DOMContentLoaded', () => {
            (window as unknown as { frameHeading: Element | null }).frameHeading =
              document.querySelector('#root h1');
          });
        });
        for (const [path, heading] of FRAME_PAGES) {
          await live.goto(`${baseUrl}${path}`);
          // The app has taken over once the controls the frame held back are live again.
          await live.waitForFunction(
            () => !document.querySelector('[data-frame-disabled], [data-frame-style]'),
          );
          await live.getByRole('heading', { level: 1, name: heading }).waitFor();
          const sameHeading = await live.evaluate(
            () =>
              (window as unknown as { frameHeading: Element | null }).frameHeading ===
              document.querySelector('#root h1'),
          );
          expect(sameHeading, path).toBe(true);
        }
        // The parts the frame left to the app are the app's: the plans answer on the pricing page.
        await live.goto(`${baseUrl}/pricing`);
        await live.getByRole('heading', { name: 'Free' }).waitFor();
        // The styles the frame could not carry are set, and the form takes input.
        await live.goto(`${baseUrl}/auth`);
        const email = live.getByLabel('Email');
        await email.fill('visitor@example.com');
        expect(await email.inputValue()).toBe('visitor@example.com');
        expect(
          await live.getByRole('tablist').evaluate((element) => (element as HTMLElement).style.outline),
        ).toBe('none');
        expect(warnings).toEqual([]);
      } finally {
        await context.close();
      }
    }));

  it("paints a shared track's page from its document, then goes straight to the live page", async () => {
    // A creator makes a public track.
    const email = `frame-${Date.now().toString(36)}@example.com`;
    const password = 'frame painter 1';
    await verifiedUser(baseUrl, { email, password });
    const creator = await browser.newContext();
    let id: string;
    try {
      const page = await creator.newPage();
      await signIn(page, baseUrl, email, password);
      const started = await page.request.post(`${baseUrl}/api/generate-text-to-music`, {
        headers: { origin: baseUrl },
        data: {
          tags: 'lo-fi, <b>warm</b>',
          lyrics: '',
          duration: 10,
          title: 'Paper & "Ink"',
          visibility: 'public',
        },
      });
      expect(started.status()).toBe(201);
      id = ((await started.json()) as { generationId: string }).generationId;
      await expect
        .poll(
          async () => {
            const status = await page.request.get(`${baseUrl}/api/generation/${id}/status`);
            return ((await status.json()) as { status: string }).status;
          },
          { timeout: 90_000, interval: 500 },
        )
        .toBe('completed');
    } finally {
      await creator.close();
    }

    // Before any script runs, a visitor sees the track's title and tags, escaped, from the document.
    const still = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await still.newPage();
      await expect
        .poll(async () => {
          await page.goto(`${baseUrl}/track/${id}`);
          return page.getByRole('heading', { level: 1, name: 'Paper & "Ink"' }).isVisible();
        })
        .toBe(true);
      expect(await page.getByText('lo-fi, <b>warm</b>').isVisible()).toBe(true);
      // When it was made, as a day in UTC (the app writes it in the reader's time zone).
      const { createdAt } = (await (await fetch(`${baseUrl}/api/track/${id}`)).json()) as {
        createdAt: string;
      };
      const created = page.locator('dt', { hasText: 'Created' }).locator('xpath=following-sibling::dd');
      expect(await created.textContent()).toBe(formatDate(createdAt, 'utc'));
    } finally {
      await still.close();
    }

    // With scripts, the title never leaves the screen: no loading state between the frame and the live page.
    const live = await browser.newContext();
    try {
      const page = await live.newPage();
      await page.addInitScript(() => {
        const state = { missing: 0, checks: 0 };
        (window as unknown as { frameState: typeof state }).frameState = state;
        document.addEventListener('DOMContentLoaded', () => {
          const root = document.getElementById('root') as HTMLElement;
          const check = () => {
            state.checks++;
            if (!root.querySelector('h1')?.textContent?.includes('Paper & "Ink"')) state.missing++;
          };
          check();
          new MutationObserver(check).observe(root, { childList: true, subtree: true });
        });
      });
      const schemaLibrary = schemaLibraryLoads(page);
      await page.goto(`${baseUrl}/track/${id}`);
      // The live page: its player plays.
      const play = page.getByRole('button', { name: 'Play Paper & "Ink"' });
      // The machine is shared: the app's start may take a while.
      await expect.poll(() => play.isEnabled(), { timeout: 30_000, interval: 200 }).toBe(true);
      await page.waitForFunction(() => !document.querySelector('[data-frame-disabled]'));
      const state = await page.evaluate(
        () => (window as unknown as { frameState: { missing: number; checks: number } }).frameState,
      );
      expect(state.checks).toBeGreaterThan(1);
      expect(state.missing).toBe(0);
      // A visitor's track page has no form: the schema library is not among what it loaded.
      expect(await schemaLibrary()).toEqual([]);
    } finally {
      await live.close();
    }
  });

  it('is never sent to a browser that carries the signed-in hint', async () => {
    const visitor = await (await fetch(`${baseUrl}/`)).text();
    const signedIn = await (await fetch(`${baseUrl}/`, { headers: { cookie: 'ts_signed_in=1' } })).text();
    expect(visitor).toContain('data-prerendered');
    expect(signedIn).toContain('<div id="root"></div>');
  });
});
