import { DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import type { Track } from '@tunesmith/shared/tracks';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, toast, verifiedUser } from './people';

// Remix with credit (decision 060): the owner lets others remix a public track, another user
// remixes it with the restyle form, and the remix's page credits its source.

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'remix maker 1';
const GENERATION_MS = 90_000;

const myTracks = (page: Page) =>
  page.evaluate(async () => {
    const answer = await fetch('/api/my-generations', { credentials: 'include' });
    return (await answer.json()) as Track[];
  });

async function signedInPage(name: string): Promise<Page> {
  const email = `${name}-${Date.now().toString(36)}@example.com`;
  await verifiedUser(baseUrl, { email, password });
  const page = await (await browser.newContext()).newPage();
  await signIn(page, baseUrl, email, password);
  return page;
}

describe('remix with credit', () => {
  it('the owner allows remixes, another user remixes the track, and the remix credits its source', {
    timeout: 300_000,
  }, async () => {
    // The owner makes a short public track.
    const owner = await signedInPage('remix-owner');
    const panel = owner.getByRole('tabpanel');
    await panel.getByLabel('Genre Tags').fill('synthwave, energetic');
    await panel.getByLabel('Title (optional)').fill('Harbour Lights');
    const duration = panel.getByRole('slider', { name: 'Duration' });
    await expect
      .poll(async () => {
        await duration.focus();
        await owner.keyboard.press('Home');
        return duration.inputValue();
      })
      .toBe(String(DURATION_MIN_SECONDS));
    await panel.getByRole('button', { name: 'Generate Music' }).click();
    await toast(owner, 'Music Generated!').waitFor({ timeout: GENERATION_MS });
    const source = (await myTracks(owner)).find((track) => track.title === 'Harbour Lights');
    if (!source) throw new Error('the source track is missing');

    // On its page, off by default, the owner lets others remix it, from the keyboard.
    await owner.goto(`${baseUrl}/track/${source.id}`);
    const allow = owner.getByRole('switch', { name: 'Let others remix' });
    expect(await allow.getAttribute('aria-checked')).toBe('false');
    await owner.getByText('No public remixes yet.').waitFor();
    await expectNoSeriousViolations(owner, "the owner's track page with the remix switch");
    await allow.focus();
    await owner.keyboard.press('Space');
    await expect.poll(() => allow.getAttribute('aria-checked')).toBe('true');

    // Another user remixes it with the restyle form and lands on the remix's page.
    const remixer = await signedInPage('remixer');
    await remixer.goto(`${baseUrl}/track/${source.id}`);
    expect(await remixer.getByRole('switch').count()).toBe(0);
    await remixer.getByRole('button', { name: 'Remix', exact: true }).click();
    const dialog = remixer.getByRole('dialog', { name: 'Remix "Harbour Lights"' });
    await dialog.getByLabel('Genre Tags').fill('jazz, brushed drums');
    await dialog.getByLabel('Title (optional)').fill('Harbour Lights in Blue');
    await expectNoSeriousViolations(remixer, 'the Remix dialog');
    await dialog.getByRole('button', { name: 'Generate Music' }).click();
    await remixer.waitForURL(
      (url) => url.pathname.startsWith('/track/') && !url.pathname.endsWith(source.id),
    );

    // The remix plays once made, and names its source (its owner has no public profile: anonymous).
    // Its own player: the source's page, with a player of its own, stays on screen until the remix's loads.
    const page = remixer.getByRole('main');
    await page
      .getByRole('button', { name: 'Play Harbour Lights in Blue' })
      .waitFor({ timeout: GENERATION_MS });
    const credit = remixer.getByText(/^Remix of /);
    await expect.poll(() => credit.textContent()).toBe('Remix of Harbour Lights by anonymous');
    expect(await credit.getByRole('link', { name: 'Harbour Lights' }).getAttribute('href')).toBe(
      `/track/${source.id}`,
    );
    await expectNoSeriousViolations(remixer, "a remix's page");

    // The source's page lists the remix for everyone.
    await credit.getByRole('link', { name: 'Harbour Lights' }).click();
    await remixer.waitForURL(`${baseUrl}/track/${source.id}`);
    await remixer.getByRole('link', { name: 'Harbour Lights in Blue' }).waitFor();
  });
});
