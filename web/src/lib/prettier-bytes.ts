import { formatBytes } from '@tunesmith/shared/uploads';

/**
 * Uppy's size formatter (`@transloadit/prettier-bytes`, which counts in
 * binary units and would call the 50 MB limit "48 MB"), replaced by ours in
 * `vite.config.ts` and `vitest.config.ts`: the upload dialog's file sizes,
 * progress and refusals read like the rest of the product.
 */
export function prettierBytes(input: number): string {
  return formatBytes(input);
}
