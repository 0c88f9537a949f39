import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../functions/src/data/keys';
import { expectNoSeriousViolations } from './axe';
import { launchBrowser } from './browser';
import { signIn, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
const cloudEnv = inject('cloudEnv');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const password = 'wave watcher 1';
const GENERATION_MS = 90_000;
const TRACK_SECONDS = 20;
/** How long a poll waits: the machine is shared, and the waveform's code and peaks load after the page. */
const POLL = { timeout: 20_000, interval: 100 };

const credentials = () => ({
  accessKeyId: cloudEnv.AWS_ACCESS_KEY_ID as string,
  secretAccessKey: cloudEnv.AWS_SECRET_ACCESS_KEY as string,
});

/**
 * Audiowaveform JSON (version 2, 8-bit mono, 20 points a second) for a track
 * of `seconds`: a swelling envelope, so every part of the waveform has bars.
 */
function peaksJson(seconds: number): string {
  const length = seconds * 20;
  const data: number[] = [];
  for (let point = 0; point < length; point++) {
    const level = Math.round(30 + 90 * Math.abs(Math.sin((point / length) * Math.PI * 3)));
    data.push(-level, level);
  }
  return JSON.stringify({
    version: 2,
    channels: 1,
    sample_rate: 44_100,
    samples_per_pixel: 2205,
    bits: 8,
    length,
    data,
  });
}

/**
 * The track's peaks where the workflow keeps them (`tracks/{id}.peaks.json`
 * beside its audio, named on its record), for a track finished before the
 * workflow made peaks of its own.
 */
async function storePeaks(id: string): Promise<void> {
  const bucket = cloudEnv.TRACKS_BUCKET as string;
  const key = `tracks/${id}.peaks.json`;
  const s3 = new S3Client({
    region: cloudEnv.AWS_REGION as string,
    endpoint: cloudEnv.S3_ENDPOINT as string,
    forcePathStyle: true,
    credentials: credentials(),
  });
  const documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: cloudEnv.AWS_REGION as string,
      endpoint: cloudEnv.DYNAMODB_ENDPOINT as string,
      credentials: credentials(),
    }),
  );
  try {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: peaksJson(TRACK_SECONDS),
        ContentType: 'application/json',
      }),
    );
    await documents.send(
      new UpdateCommand({
        TableName: cloudEnv.TABLE_NAME as string,
        Key: keys.generation(id),
        UpdateExpression: 'SET peaksUrl = :peaks',
        ExpressionAttributeValues: { ':peaks': `s3://${bucket}/${key}` },
      }),
    );
  } finally {
    s3.destroy();
    documents.destroy();
  }
}

/** Starts a track through the API with the page's session and waits until it is completed; returns its id. */
async function completedTrack(page: Page, title: string): Promise<string> {
  const started = await page.request.post(`${baseUrl}/api/generate-text-to-music`, {
    headers: { origin: baseUrl },
    data: { tags: 'ambient, calm', lyrics: '', duration: TRACK_SECONDS, title, visibility: 'public' },
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

/** The first player's audio element, read in the page. */
const audioTime = (page: Page) => page.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);

/** Whether the waveform under the slider has drawn anything: a canvas in wavesurfer's shadow root with a painted pixel. */
const waveformDrawn = (page: Page, name: string) =>
  page.evaluate((label) => {
    const slider = document.querySelector(`div[role="slider"][aria-label="${label}"]`);
    const canvases = Array.from(slider?.querySelector('div')?.shadowRoot?.querySelectorAll('canvas') ?? []);
    return canvases.some((canvas) => {
      if (canvas.width === 0 || canvas.height === 0) return false;
      const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      return pixels ? pixels.some((value, index) => index % 4 === 3 && value > 0) : false;
    });
  }, name);

describe('the waveform player', () => {
  it('draws a finished track from its peaks; a click and the keys seek; it fits a phone', async () => {
    const email = `waves-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext();
    const page = await context.newPage();
    // The site's policy (shared/src/content-security-policy.ts) is the one CloudFront sends: nothing may be refused.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    await signIn(page, baseUrl, email, password);

    const id = await completedTrack(page, 'Tide Lines');
    const track = await page.request.get(`${baseUrl}/api/track/${id}`);
    if (((await track.json()) as { peaksUrl: string | null }).peaksUrl === null) await storePeaks(id);

    // The track page: the seek bar is the waveform, drawn, and says the time.
    await page.goto(`${baseUrl}/track/${id}`);
    await page.getByRole('heading', { name: 'Tide Lines' }).waitFor();
    const waveform = page.getByRole('slider', { name: 'Seek Tide Lines' });
    await expect.poll(() => waveform.evaluate((element) => element.tagName), POLL).toBe('DIV');
    await expect.poll(() => waveformDrawn(page, 'Seek Tide Lines'), POLL).toBe(true);
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.readyState ?? 0), POLL)
      .toBeGreaterThan(0);
    expect(await waveform.getAttribute('aria-valuetext')).toBe('0:00 of 0:20');
    // Its own styles apply: the played part lies over the waveform, in the height the player keeps for it.
    expect(
      await waveform.evaluate(
        (slider) => (slider.querySelector('div') as HTMLElement | null)?.getBoundingClientRect().height,
      ),
    ).toBe(48);
    expect(refused).toEqual([]);
    await expectNoSeriousViolations(page, 'track page with its waveform');

    // A click three quarters along seeks there.
    const box = await waveform.boundingBox();
    if (!box) throw new Error('the waveform has no box');
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    await expect.poll(() => audioTime(page), POLL).toBeGreaterThan(13);
    expect(await audioTime(page)).toBeLessThan(17);
    await expect.poll(() => waveform.getAttribute('aria-valuetext'), POLL).toMatch(/^0:1[3-6] of 0:20$/);

    // The keys seek from there: left 5 s back, Home to the start, End to the end, right 5 s on.
    const clicked = await audioTime(page);
    await waveform.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => audioTime(page), POLL).toBeCloseTo(clicked - 5, 0);
    await page.keyboard.press('Home');
    await expect.poll(() => audioTime(page), POLL).toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => audioTime(page), POLL).toBe(5);
    await expect.poll(() => waveform.getAttribute('aria-valuetext'), POLL).toBe('0:05 of 0:20');

    // Play and pause still work beside it: it plays on from where the keys left it.
    await page.getByRole('button', { name: 'Play Tide Lines' }).click();
    await page.getByRole('button', { name: 'Pause Tide Lines' }).waitFor();
    await expect.poll(() => audioTime(page), POLL).toBeGreaterThan(5);
    await page.getByRole('button', { name: 'Pause Tide Lines' }).click();
    await page.getByRole('button', { name: 'Play Tide Lines' }).waitFor();

    await waveform.focus();
    await page.keyboard.press('End');
    await expect.poll(() => audioTime(page), POLL).toBeGreaterThan(19);
    await expect.poll(() => waveform.getAttribute('aria-valuetext'), POLL).toBe('0:20 of 0:20');
    // At the end, a step on keeps it there: the audio ends (Chromium reports it once the seek lands), and
    // the bar stays where the audio is; a step back goes back from there.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.querySelector('audio')?.ended), POLL).toBe(true);
    expect(await waveform.getAttribute('aria-valuetext')).toBe('0:20 of 0:20');
    expect(await audioTime(page)).toBeGreaterThan(19);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => waveform.getAttribute('aria-valuetext'), POLL).toBe('0:15 of 0:20');
    await expect.poll(() => audioTime(page), POLL).toBeCloseTo(15, 0);

    // On a phone the waveform fills the player's width and nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => waveformDrawn(page, 'Seek Tide Lines'), POLL).toBe(true);
    const phoneBox = await page.getByRole('slider', { name: 'Seek Tide Lines' }).boundingBox();
    expect(phoneBox?.width).toBeGreaterThan(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousViolations(page, 'track page with its waveform on a phone');

    // The library card plays the same track over its waveform.
    await page.goto(`${baseUrl}/library`);
    // Its waveform is drawn once the card comes near the screen, as the visitor reaches it.
    await page.getByRole('article', { name: 'Tide Lines' }).scrollIntoViewIfNeeded();
    await expect.poll(() => waveformDrawn(page, 'Seek Tide Lines'), POLL).toBe(true);
    await expectNoSeriousViolations(page, 'library with a waveform');

    await context.close();
  });
});
