/**
 * The pricing page's document (decision 038): `pages/pricing.html` in the
 * site bucket on AWS, where the deployment puts it; locally, the built file
 * the local server serves.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { PRICING_PAGE_KEY } from '@tunesmith/shared/pages';
import type { PricingDocument } from '../../domain/plans/pricing-page';
import type { S3 } from '../s3/client';
import { missing, SHARE_PAGE_CACHE_CONTROL } from './share-pages';

/** {@link PricingDocument} at `pages/pricing.html` in `bucket`, revalidated on every request as the deployment has it. */
export function s3PricingPage(s3: S3, bucket: string): PricingDocument {
  return {
    async read() {
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: PRICING_PAGE_KEY }));
        return (await object.Body?.transformToString('utf8')) ?? '';
      } catch (error) {
        if (missing(error)) return undefined;
        throw error;
      }
    },
    async write(html) {
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: PRICING_PAGE_KEY,
          Body: html,
          ContentType: 'text/html; charset=utf-8',
          CacheControl: SHARE_PAGE_CACHE_CONTROL,
        }),
      );
    },
  };
}

/**
 * {@link PricingDocument} in the built file `file` (the local cloud:
 * `web/dist/pages/pricing.html`). Written whole, by a rename, so the server
 * never sends half of it; the compressed copies the build made beside it are
 * removed, as they would say what the file said before.
 */
export function filePricingPage(file: string): PricingDocument {
  return {
    read: () =>
      readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      }),
    async write(html) {
      const next = `${file}.next`;
      await writeFile(next, html);
      await rename(next, file);
      await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
    },
  };
}
