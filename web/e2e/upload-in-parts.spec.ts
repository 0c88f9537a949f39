import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser';
import { signIn, toast, verifiedUser } from './people';

const baseUrl = inject('baseUrl');
let browser: Browser;
// The file goes to the browser from disk: a 20 MB buffer through the driver's protocol is slow.
const filesDir = mkdtempSync(join(tmpdir(), 'tunesmith-parts-'));

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const password = 'long upload 1';
const GENERATION_MS = 120_000;

/** A real WAV of exactly `bytes` bytes (16-bit stereo, 48 kHz): a slow tone. */
function wavOfSize(bytes: number): Buffer {
  const data = bytes - 44;
  const rate = 48_000;
  const buffer = Buffer.alloc(bytes);
  buffer.write('RIFF', 0, 'latin1');
  buffer.writeUInt32LE(36 + data, 4);
  buffer.write('WAVEfmt ', 8, 'latin1');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(2, 22);
  buffer.writeUInt32LE(rate, 24);
  buffer.writeUInt32LE(rate * 4, 28);
  buffer.writeUInt16LE(4, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'latin1');
  buffer.writeUInt32LE(data, 40);
  for (let i = 0; i < Math.floor(data / 4); i++) {
    const sample = Math.round(6000 * Math.sin((2 * Math.PI * 196 * i) / rate));
    buffer.writeInt16LE(sample, 44 + i * 4);
    buffer.writeInt16LE(sample, 46 + i * 4);
  }
  return buffer;
}

/** The part number of a part PUT to storage, or undefined for any other request. */
function partNumberOf(request: Request): number | undefined {
  if (request.method() !== 'PUT') return undefined;
  const url = new URL(request.url());
  const part = url.searchParams.get('partNumber');
  return url.searchParams.has('uploadId') && part ? Number(part) : undefined;
}

describe('an upload in parts', () => {
  it('sends a 20 MB file in 5 MiB parts, survives a dropped connection and restyles it', {
    timeout: 300_000,
  }, async () => {
    const email = `parts-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);

    // The connection drops on the first try of part 2; every later try goes through. Part 4 waits
    // until the test lets it go, so the upload is still under way when the dialog is closed.
    const tried: number[] = [];
    const finished: number[] = [];
    let dropped = false;
    let letPart4Go: () => void = () => undefined;
    const part4Held = new Promise<void>((resolve) => {
      letPart4Go = resolve;
    });
    await page.route(
      (url) => url.searchParams.has('uploadId') && url.searchParams.has('partNumber'),
      async (route) => {
        const part = partNumberOf(route.request());
        if (!dropped && part === 2) {
          dropped = true;
          await route.abort('connectionreset');
          return;
        }
        if (part === 4) await part4Held;
        await route.continue();
      },
    );
    page.on('request', (request) => {
      const part = partNumberOf(request);
      if (part) tried.push(part);
    });
    page.on('requestfinished', async (request) => {
      const part = partNumberOf(request);
      if (part && (await request.response())?.status() === 200) finished.push(part);
    });
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/s3/') || url.pathname.startsWith('/api/objects/')) {
        calls.push(
          `${request.method()} ${url.pathname.replace(/\/api\/s3\/multipart\/[^/]+/, '/api/s3/multipart/{id}')}`,
        );
      }
    });

    await page.getByRole('tab', { name: 'Audio to Music' }).click();
    const panel = page.getByRole('tabpanel');
    await panel.getByRole('button', { name: 'Upload Audio' }).click();
    await page.getByRole('dialog', { name: 'Upload Audio' }).waitFor();
    const file = join(filesDir, 'long-take.wav');
    writeFileSync(file, wavOfSize(20_000_000));
    await page.locator('.uppy-Dashboard-input').first().setInputFiles(file);
    await page.locator('.uppy-StatusBar-actionBtn--upload').click();

    // Closed mid-upload (Escape), the upload goes on and the form says so, holding Generate Music.
    await expect.poll(() => tried.includes(4), { timeout: 60_000 }).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Upload Audio' }).waitFor({ state: 'hidden' });
    await panel.getByText('Uploading long-take.wav... Upload Audio shows it and can cancel it.').waitFor();
    expect(await panel.getByRole('progressbar', { name: 'Uploading long-take.wav' }).isVisible()).toBe(true);
    expect(await panel.getByRole('button', { name: 'Generate Music' }).isDisabled()).toBe(true);
    letPart4Go();

    await toast(page, 'Audio Uploaded!').waitFor({ timeout: 60_000 });
    await panel.getByText('Selected file: long-take.wav').waitFor();
    expect(await panel.getByRole('button', { name: 'Generate Music' }).isDisabled()).toBe(false);

    // Four parts (5 MiB, 5 MiB, 5 MiB and the rest); part 2 went twice, each part landed once.
    expect(dropped).toBe(true);
    expect(tried.filter((n) => n === 2)).toHaveLength(2);
    expect([...new Set(tried)].sort()).toEqual([1, 2, 3, 4]);
    await expect.poll(() => [...finished].sort()).toEqual([1, 2, 3, 4]);
    // In parts through the multipart calls, never as a single PUT, and checked on completion.
    expect(calls).toContain('POST /api/s3/multipart');
    expect(calls).toContain('POST /api/s3/multipart/{id}/complete');
    expect(calls.filter((call) => call.startsWith('POST /api/objects/'))).toEqual([]);

    // The upload is usable as a single upload is: restyle it.
    await panel.getByLabel('Genre Tags').fill('ambient');
    await panel.getByLabel('Title (optional)').fill('Long Take Remix');
    await panel.getByRole('button', { name: 'Generate Music' }).click();
    await toast(page, 'Music Generated!').waitFor({ timeout: GENERATION_MS });

    await context.close();
  });

  it('refuses a file over 5 MB that is not audio as it is chosen, saying why where it can be read', async () => {
    const email = `not-audio-${Date.now().toString(36)}@example.com`;
    await verifiedUser(baseUrl, { email, password });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/s3/') || url.pathname.startsWith('/api/objects/'))
        calls.push(url.pathname);
    });

    await page.getByRole('tab', { name: 'Audio to Music' }).click();
    const panel = page.getByRole('tabpanel');
    await panel.getByRole('button', { name: 'Upload Audio' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Audio' });
    await dialog.waitFor();
    // An allowed name, an allowed size, but text: the server would refuse it once it had all arrived.
    const file = join(filesDir, 'notes.mp3');
    writeFileSync(file, Buffer.alloc(6_000_000, 'Dear diary. '));
    await page.locator('.uppy-Dashboard-input').first().setInputFiles(file);

    // (Uppy's Dashboard 6 draws its notice line twice, one over the other.)
    const reason = dialog
      .getByRole('alert')
      .filter({
        hasText: 'notes.mp3 is not a supported audio file (MP3, WAV, M4A, AAC or OGG), so it cannot be used.',
      })
      .last();
    await reason.waitFor();
    // In the dialog, on top: nothing (no backdrop) covers it.
    expect(
      await reason.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
      }),
    ).toBe(true);
    // The file is not kept: nothing to upload, no "Upload failed", no Retry; nothing was sent.
    expect(await page.locator('.uppy-Dashboard-Item').count()).toBe(0);
    expect(await page.locator('.uppy-StatusBar-actionBtn--upload').count()).toBe(0);
    expect(await page.locator('.uppy-StatusBar-actionBtn--retry').count()).toBe(0);
    expect(calls).toEqual([]);
    await page.keyboard.press('Escape');
    await panel.getByText('No audio file uploaded yet.').waitFor();

    await context.close();
  });
});
