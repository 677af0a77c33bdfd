// What the console measurements share: the browser, the LCP observer, the scripts a visit loads.
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
export const { chromium } = require('playwright-core');

/** Command-line arguments as --name value pairs over the defaults. */
export function parseArgs(defaults) {
  const out = { ...defaults };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    out[argv[i].replace(/^--/, '')] = argv[i + 1];
  }
  return out;
}

/** Debian's Chromium, headless. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Keeps the page's last Largest Contentful Paint entry in window.__lcp. */
export const LCP_OBSERVER = () => {
  window.__lcp = { time: 0, element: '' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const el = entry.element;
      window.__lcp = {
        time: entry.startTime,
        element: el ? `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''}` : '',
      };
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
};

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Collects the scripts a page loads (from the network or a service worker): each one's size,
 * gzip -9 size and bytes on the wire. Returns a function that resolves to their sums, and to
 * the sums over the scripts whose URLs it is given (those in by a moment of the visit).
 */
export function trackScripts(page) {
  const scripts = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (response.request().resourceType() === 'script' || type.includes('javascript')) {
      scripts.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return {
            url: response.url(),
            raw: body.length,
            gzip: gzipSync(body, { level: 9 }).length,
            wire: sizes.responseBodySize,
            encoding: response.headers()['content-encoding'] ?? '',
          };
        })().catch(() => null),
      );
    }
  });
  return async (urlsBefore) => {
    const js = (await Promise.all(scripts)).filter(Boolean);
    const first = urlsBefore ? js.filter((x) => urlsBefore.has(x.url)) : js;
    return {
      jsFirstFiles: first.length,
      jsFirstGzip: first.reduce((a, x) => a + x.gzip, 0),
      jsFiles: js.length,
      jsRaw: js.reduce((a, x) => a + x.raw, 0),
      jsGzip: js.reduce((a, x) => a + x.gzip, 0),
      jsWire: js.reduce((a, x) => a + Math.max(0, x.wire), 0), // -1: not from the network
      gzipped: js.every((x) => x.encoding === 'gzip'),
    };
  };
}
