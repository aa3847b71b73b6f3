// @ts-check
/**
 * Renders the PNG images that must be raster (share preview, app icons) from SVG with Chromium, into
 * public/ (committed). By hand after changing the artwork: `node scripts/tools/generate-images.mjs`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '#scripts/bench/chromium.mjs';

const ICON_SVG = await readFile('public/favicon.svg', 'utf8');

const OG_HTML = `<!doctype html><html><body style="margin:0">
<div style="width:1200px;height:630px;display:flex;align-items:center;gap:64px;padding:0 96px;box-sizing:border-box;
background:linear-gradient(135deg,#5b2ee0,#3a1a9e);font-family:system-ui,sans-serif;color:#fff">
  <div style="width:260px;height:260px;flex:none">${ICON_SVG.replace('<svg ', '<svg width="260" height="260" ')}</div>
  <div>
    <div style="font-size:88px;font-weight:800;letter-spacing:-2px">Podling</div>
    <div style="font-size:44px;line-height:1.25;margin-top:16px;max-width:640px">Podcasts made by kids, in their own voice</div>
    <div style="display:inline-block;margin-top:32px;background:#ffb703;color:#1b1530;font-size:30px;font-weight:700;padding:10px 24px;border-radius:999px">Available now on iOS and Android</div>
  </div>
</div></body></html>`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS] });
const page = await browser.newPage({ deviceScaleFactor: 1 });

await page.setViewportSize({ width: 1200, height: 630 });
await page.setContent(OG_HTML);
await writeFile('public/og-image.png', await page.screenshot({ type: 'png' }));

for (const size of [180, 192, 512]) {
  await page.setViewportSize({ width: size, height: size });
  // Maskable/touch icons want a full-bleed square: no rounded corners, the mark inset.
  await page.setContent(
    `<body style="margin:0;background:#5b2ee0">${ICON_SVG.replace('<svg ', `<svg width="${size}" height="${size}" `).replace('rx="16"', 'rx="0"')}</body>`,
  );
  const name = size === 180 ? 'apple-touch-icon.png' : `icon-${size}.png`;
  await writeFile(`public/${name}`, await page.screenshot({ type: 'png', omitBackground: false }));
}
await browser.close();
console.log('Wrote public/og-image.png, apple-touch-icon.png, icon-192.png, icon-512.png');
