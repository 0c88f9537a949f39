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

    // The connection drops on the first try of part 2; every later try goes through.
    const tried: number[] = [];
    const finished: number[] = [];
    let dropped = false;
    await page.route(
      (url) => url.searchParams.has('uploadId') && url.searchParams.has('partNumber'),
      async (route) => {
        if (!dropped && partNumberOf(route.request()) === 2) {
          dropped = true;
          await route.abort('connectionreset');
          return;
        }
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
    await toast(page, 'Audio Uploaded!').waitFor({ timeout: 60_000 });
    await panel.getByText('Selected file: long-take.wav').waitFor();

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
});
