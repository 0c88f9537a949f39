import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../functions/src/data/keys';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, toast, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'music maker 1';
const GENERATION_MS = 90_000;

/**
 * A verified account on the Basic plan (private tracks and downloads), arranged
 * through the API, the local mailbox and the table, as a subscription would leave it.
 */
async function paidUser(email: string): Promise<void> {
  const id = await verifiedUser(baseUrl, { email, password });
  const documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: cloudEnv.AWS_REGION as string,
      endpoint: cloudEnv.DYNAMODB_ENDPOINT as string,
      credentials: {
        accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID as string,
        secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY as string,
      },
    }),
  );
  try {
    await documents.send(
      new UpdateCommand({
        TableName: cloudEnv.TABLE_NAME as string,
        Key: keys.user(id),
        UpdateExpression: 'SET planStatus = :status, subscriptionPlanId = :plan, planStartDate = :now',
        ExpressionAttributeValues: {
          ':status': 'active',
          ':plan': 'basic',
          ':now': new Date().toISOString(),
        },
      }),
    );
  } finally {
    documents.destroy();
  }
}

/** A real 2-second WAV (16-bit mono, 22.05 kHz): a rising tone. */
function wavFile(): Buffer {
  const rate = 22_050;
  const samples = rate * 2;
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write('RIFF', 0, 'latin1');
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write('WAVEfmt ', 8, 'latin1');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'latin1');
  buffer.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const frequency = 220 + (220 * i) / samples;
    buffer.writeInt16LE(Math.round(9000 * Math.sin((2 * Math.PI * frequency * i) / rate)), 44 + i * 2);
  }
  return buffer;
}

/** The audio element's state, read in the page. */
const audioState = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector('audio');
    return audio
      ? { paused: audio.paused, ended: audio.ended, time: audio.currentTime, duration: audio.duration }
      : undefined;
  });

describe('a person makes music and looks after it', () => {
  it('creates from tags, plays, renames, makes private, shares, restyles an upload and deletes', async () => {
    const email = `maker-${Date.now().toString(36)}@example.com`;
    await paidUser(email);
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const page = await context.newPage();

    // Sign in: the signed-in home is the Create page.
    await signIn(page, baseUrl, email, password);
    await expectNoSeriousViolations(page, 'create, Text to Music');

    // The lyrics helper opens over the form and closes again.
    await page.getByRole('button', { name: 'Lyrics helper' }).click();
    const helper = page.getByRole('dialog', { name: 'Lyrics Helper' });
    await helper.getByLabel('What is your song about?').waitFor();
    await expectNoSeriousViolations(page, 'lyrics helper');
    // A toast raised inside the dialog shows above its backdrop: the topmost element at its centre is the toast.
    await helper.getByRole('button', { name: 'Generate Lyrics' }).click();
    // (While the modal is open the rest of the page is aria-hidden, so it is found by its element.)
    const required = page
      .locator('li[data-variant], div[data-variant]')
      .filter({ hasText: 'Prompt required' });
    await required.waitFor();
    const box = await required.boundingBox();
    if (!box) throw new Error('the toast has no box');
    const onTop = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-variant]')?.textContent ?? '',
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(onTop).toContain('Prompt required');
    await helper.getByRole('button', { name: 'Close' }).click();
    await helper.waitFor({ state: 'detached' });

    // Create a track from tags (the shortest duration keeps the journey quick).
    let panel = page.getByRole('tabpanel');
    await panel.getByLabel('Genre Tags').fill('synthwave, energetic');
    await panel.getByLabel('Title (optional)').fill('First Light');
    // Until the slider says so: a key pressed before the form is ready changes nothing.
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
    await expectNoSeriousViolations(page, 'create, a generated track');

    // It plays: the player starts and time moves.
    await panel.getByRole('button', { name: 'Play First Light' }).click();
    await expect
      .poll(async () => (await audioState(page))?.time ?? 0, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const playing = await audioState(page);
    // Playing, or (on a slow machine) already played to its end of a 5 s track.
    expect(playing?.paused === false || playing?.ended === true).toBe(true);
    expect(playing?.duration).toBeGreaterThan(4);
    expect(playing?.duration).toBeLessThan(6);

    // A paid plan downloads it from the Create page as ai-music-{timestamp}.wav, after a dialog that
    // states the track's license (Basic's: personal use).
    await panel.getByRole('button', { name: 'Download' }).click();
    const downloadDialog = page.getByRole('dialog', { name: 'Download Track' });
    await downloadDialog.getByText('Personal, non-commercial use only.').waitFor();
    await expectNoSeriousViolations(page, 'create, download dialog');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      downloadDialog.getByRole('button', { name: 'Download WAV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^ai-music-\d+\.wav$/);

    // Rename it in the library.
    await page.getByRole('tab', { name: 'My Library' }).click();
    panel = page.getByRole('tabpanel');
    let track = panel.getByRole('article', { name: 'First Light' });
    await track.getByRole('button', { name: 'Rename' }).waitFor();
    await expectNoSeriousViolations(page, 'create, My Library');
    await track.getByRole('button', { name: 'Rename' }).click();
    await track.getByRole('textbox', { name: 'Track title' }).fill('Morning Light');
    await page.keyboard.press('Enter');
    await toast(page, 'Track updated').waitFor();
    track = panel.getByRole('article', { name: 'Morning Light' });
    await track.waitFor();

    // Make it private, then take its share link.
    await track.getByRole('button', { name: 'Make Private' }).click();
    await track.getByRole('button', { name: 'Make Public' }).waitFor();
    await track.getByRole('button', { name: 'Share' }).click();
    await toast(page, 'Link Copied!').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${baseUrl}/track/[\\w-]+$`));

    // The owner still sees it; a visitor following the link gets not found.
    const own = await context.newPage();
    await own.goto(link);
    await own.getByRole('heading', { name: 'Morning Light' }).waitFor();
    await expectNoSeriousViolations(own, 'track page');
    await own.goto(`${baseUrl}/library`);
    await own.getByRole('heading', { level: 1, name: 'My Music Library' }).waitFor();
    await own.getByRole('article', { name: 'Morning Light' }).waitFor();
    await expectNoSeriousViolations(own, 'library page');
    await own.close();
    const visitor = await browser.newPage();
    await visitor.goto(link);
    await visitor.getByRole('heading', { name: 'Track Not Found' }).waitFor();
    await visitor.getByRole('link', { name: 'Go Home' }).waitFor();
    await expectNoSeriousViolations(visitor, 'track page, not found');
    await visitor.close();

    // Upload a WAV and restyle it.
    await page.getByRole('tab', { name: 'Audio to Music' }).click();
    panel = page.getByRole('tabpanel');
    await panel.getByRole('button', { name: 'Upload Audio' }).click();
    await page.getByRole('dialog', { name: 'Upload Audio' }).waitFor();
    await expectNoSeriousViolations(page, 'upload dialog');
    await page
      .locator('.uppy-Dashboard-input')
      .first()
      .setInputFiles({ name: 'hum.wav', mimeType: 'audio/wav', buffer: wavFile() });
    await page.locator('.uppy-StatusBar-actionBtn--upload').click();
    await toast(page, 'Audio Uploaded!').waitFor({ timeout: 30_000 });
    await panel.getByText('Selected file: hum.wav').waitFor();
    await expectNoSeriousViolations(page, 'create, Audio to Music with a file');
    await panel.getByLabel('Genre Tags').fill('lo-fi, chill');
    await panel.getByLabel('Title (optional)').fill('Hum Remix');
    await panel.getByRole('button', { name: 'Generate Music' }).click();
    await toast(page, 'Music Generated!').waitFor({ timeout: GENERATION_MS });

    // The public remix is in the Home gallery for visitors; the private track is not.
    const home = await browser.newPage();
    await home.goto(baseUrl);
    await home.getByRole('heading', { name: 'Community Gallery' }).waitFor();
    await home.getByText('Hum Remix').first().waitFor();
    expect(await home.getByText('Morning Light').count()).toBe(0);
    await expectNoSeriousViolations(home, 'home with the gallery');
    await home.close();

    // Both tracks are in the library; delete the first one.
    await page.getByRole('tab', { name: 'My Library' }).click();
    panel = page.getByRole('tabpanel');
    await panel.getByRole('article', { name: 'Hum Remix' }).getByText('Remix', { exact: true }).waitFor();
    track = panel.getByRole('article', { name: 'Morning Light' });
    await track.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Track' }).waitFor();
    await expectNoSeriousViolations(page, 'delete track dialog');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Track' }).click();
    await toast(page, 'Track deleted').waitFor();
    await expect.poll(() => panel.getByRole('article', { name: 'Morning Light' }).count()).toBe(0);
    const api404 = await fetch(`${baseUrl}/api/track/${link.split('/').pop()}`);
    expect(api404.status).toBe(404);

    await context.close();
  });
});
