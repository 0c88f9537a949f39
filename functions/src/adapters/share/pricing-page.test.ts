import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { s3Of } from '../s3/client';
import { filePricingPage, s3PricingPage } from './pricing-page';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the pricing page in a built file', () => {
  it('reads none before a build, then replaces the file and the compressed copies that said what it said', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tunesmith-pricing-'));
    const file = join(dir, 'pricing.html');
    const page = filePricingPage(file);
    expect(await page.read()).toBeUndefined();

    writeFileSync(file, '<p>built</p>');
    writeFileSync(`${file}.br`, 'old');
    writeFileSync(`${file}.gz`, 'old');
    expect(await page.read()).toBe('<p>built</p>');
    await page.write('<p>filled</p>');

    expect(readFileSync(file, 'utf8')).toBe('<p>filled</p>');
    expect(existsSync(`${file}.br`)).toBe(false);
    expect(existsSync(`${file}.gz`)).toBe(false);
    expect(existsSync(`${file}.next`)).toBe(false);
  });
});

describe('the pricing page in the site bucket', () => {
  /** A site bucket as S3 answers: a missing key is 404, or 403 to a reader without ListBucket. */
  function bucket(status: number) {
    const objects = new Map<string, { body: string; type?: string; cache?: string }>();
    const client = {
      async send(command: { constructor: { name: string }; input: Record<string, string> }) {
        const { Key, Body, ContentType, CacheControl } = command.input;
        if (command.constructor.name === 'PutObjectCommand') {
          objects.set(Key as string, { body: Body as string, type: ContentType, cache: CacheControl });
          return {};
        }
        const object = objects.get(Key as string);
        if (!object) throw Object.assign(new Error('missing'), { $metadata: { httpStatusCode: status } });
        return { Body: { transformToString: async () => object.body } };
      },
    } as unknown as S3Client;
    return { s3: s3Of(client), objects };
  }

  it('is none before a deploy, then pages/pricing.html, written as HTML that is revalidated on every request', async () => {
    for (const status of [404, 403]) {
      const { s3, objects } = bucket(status);
      const page = s3PricingPage(s3, 'site');
      expect(await page.read()).toBeUndefined();
      await page.write('<p>filled</p>');
      expect(await page.read()).toBe('<p>filled</p>');
      expect(objects.get('pages/pricing.html')).toEqual({
        body: '<p>filled</p>',
        type: 'text/html; charset=utf-8',
        cache: 'public, no-cache',
      });
    }
  });
});
