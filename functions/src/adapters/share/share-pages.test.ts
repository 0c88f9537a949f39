import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { s3Of } from '../s3/client';
import { fileShareTemplate, s3ShareTemplate } from './share-pages';

/** A site bucket holding `objects`; a missing key is refused as S3 refuses it (`status`: 404, or 403 without ListBucket). */
function bucketOf(objects: Record<string, string>, status = 404) {
  const asked: string[] = [];
  const client = {
    async send(command: { input: { Key: string } }) {
      asked.push(command.input.Key);
      const body = objects[command.input.Key];
      if (body === undefined)
        throw Object.assign(new Error('missing'), {
          name: status === 404 ? 'NoSuchKey' : 'AccessDenied',
          $metadata: { httpStatusCode: status },
        });
      return { Body: { transformToString: async () => body } };
    },
  } as unknown as S3Client;
  return { s3: s3Of(client), asked };
}

describe('the share template in the site bucket', () => {
  it('is the track frame template when it is deployed', async () => {
    const { s3, asked } = bucketOf({ 'pages/track.html': 'frame', 'index.html': 'shell' });
    expect(await s3ShareTemplate(s3, 'site')()).toBe('frame');
    expect(asked).toEqual(['pages/track.html']);
  });

  it('is the shell for a site deployed before the template, whether S3 answers 404 or 403', async () => {
    for (const status of [404, 403]) {
      const { s3, asked } = bucketOf({ 'index.html': 'shell' }, status);
      expect(await s3ShareTemplate(s3, 'site')()).toBe('shell');
      expect(asked).toEqual(['pages/track.html', 'index.html']);
    }
  });

  it('fails when neither is there, or on any other error', async () => {
    await expect(s3ShareTemplate(bucketOf({}).s3, 'site')()).rejects.toThrow('missing');
    const broken = {
      send: async () =>
        Promise.reject(Object.assign(new Error('slow down'), { $metadata: { httpStatusCode: 503 } })),
    } as unknown as S3Client;
    await expect(s3ShareTemplate(s3Of(broken), 'site')()).rejects.toThrow('slow down');
  });
});

describe('the share template from files (the local cloud)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'share-template-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the first file that exists', async () => {
    writeFileSync(join(dir, 'index.html'), 'shell');
    const read = fileShareTemplate(join(dir, 'track.html'), join(dir, 'index.html'));
    expect(await read()).toBe('shell');
    writeFileSync(join(dir, 'track.html'), 'frame');
    expect(await read()).toBe('frame');
    await expect(fileShareTemplate(join(dir, 'none.html'))()).rejects.toThrow(/No share page template/);
  });
});
