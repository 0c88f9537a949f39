/**
 * `npx tsx scripts/make-background-poster.ts` writes the page background's
 * still (web/public/media/background-blurred.jpg) from the video's poster
 * (web/public/media/background-poster.jpg), blurred once here with Debian's
 * Chromium: a blur filter over the whole screen costs every phone a slow first
 * paint, a blurred picture costs nothing. Run it again after changing the poster.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../web/e2e/browser';

const media = (name: string) => fileURLToPath(new URL(`../web/public/media/${name}`, import.meta.url));
const poster = readFileSync(media('background-poster.jpg')).toString('base64');

const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const dataUrl = await page.evaluate(async (source: string) => {
    const image = new Image();
    image.src = `data:image/jpeg;base64,${source}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    // As the former CSS blur (40px on a screen-wide copy), at the poster's size; edges drawn past
    // the canvas so they do not fade to black.
    context.filter = 'blur(8px)';
    const m = 24;
    context.drawImage(image, -m, -m, canvas.width + 2 * m, canvas.height + 2 * m);
    return canvas.toDataURL('image/jpeg', 0.8);
  }, poster);
  const out = media('background-blurred.jpg');
  writeFileSync(out, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
