/**
 * `npx tsx scripts/make-share-image.ts` renders the site's link preview image
 * (web/public/share-image.png, 1200×630, decision 024) from the SVG below
 * with Debian's Chromium. Run it again after changing the SVG; commit the PNG.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHARE_IMAGE } from '../functions/src/domain/tracks/share-page';
import { launchBrowser } from '../web/e2e/browser';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#09090b"/><stop offset="1" stop-color="#1e1b4b"/>
    </linearGradient>
    <linearGradient id="wave" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#38bdf8"/><stop offset="1" stop-color="#a78bfa"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <g fill="url(#wave)">
    ${Array.from({ length: 48 }, (_, i) => {
      const h = 40 + Math.round(150 * Math.abs(Math.sin(i * 0.55) * Math.cos(i * 0.21)));
      return `<rect x="${120 + i * 20}" y="${400 - h / 2}" width="12" height="${h}" rx="6"/>`;
    }).join('')}
  </g>
  <text x="120" y="190" font-family="DejaVu Sans, sans-serif" font-size="96" font-weight="700" fill="#fafafa">Tunesmith</text>
  <text x="120" y="560" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#d4d4d8">Listen to music made with AI</text>
</svg>`;

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: SHARE_IMAGE.width, height: SHARE_IMAGE.height } });
  await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
  const png = await page.screenshot({
    type: 'png',
    clip: { x: 0, y: 0, width: SHARE_IMAGE.width, height: SHARE_IMAGE.height },
  });
  const out = fileURLToPath(new URL(`../web/public${SHARE_IMAGE.path}`, import.meta.url));
  writeFileSync(out, png);
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
