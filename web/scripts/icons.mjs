// The installed console's icons (web/public/icons), drawn from each edition's favicon by
// Chromium: an icon of any shape at 192 and 512 px, and a maskable one (the favicon on a
// full-bleed square of its own blue, inside the middle 80 % a launcher's mask keeps).
//
//   node scripts/icons.mjs      (after changing public/favicon*.svg; the PNGs are committed)
import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { chromium } from 'playwright-core';

const EDITIONS = [
  { name: 'helio', svg: 'favicon.svg', background: '#165DFF' },
  { name: 'intranet', svg: 'favicon-intranet.svg', background: '#0E42D2' },
];
const SIZES = [192, 512];
const pub = (file) => fileURLToPath(new URL(`../public/${file}`, import.meta.url));

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const edition of EDITIONS) {
    const svg = `data:image/svg+xml;base64,${readFileSync(pub(edition.svg)).toString('base64')}`;
    for (const size of SIZES) {
      for (const maskable of [false, true]) {
        const inner = maskable ? Math.round(size * 0.72) : size;
        await page.setViewportSize({ width: size, height: size });
        await page.setContent(
          `<body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${maskable ? edition.background : 'transparent'}">` +
            `<img src="${svg}" width="${inner}" height="${inner}" alt=""></body>`,
        );
        await page.locator('img').evaluate((img) => img.decode());
        const file = `icons/${edition.name}-${maskable ? 'maskable-' : ''}${size}.png`;
        await page.screenshot({ path: pub(file), omitBackground: !maskable });
        console.log(file);
      }
    }
  }
} finally {
  await browser.close();
}
