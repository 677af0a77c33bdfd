// Measures the console in headless Chromium, one cold visit (fresh profile, empty cache)
// per route and run: the JavaScript the route loads (gzip -9 of each script, and the bytes
// on the wire) and its Largest Contentful Paint. Run by the benchmark (go run ./bench):
//
//   node bench/console/measure.mjs --base http://127.0.0.1:PORT --token TOKEN \
//        --baseline http://127.0.0.1:PORT2/ --runs 5 --routes /login,/monitor,/station
//
// Prints one JSON object. playwright-core comes from web/node_modules.
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

function parseArgs() {
  const out = { runs: 3, routes: '/login,/monitor', settle: 1000 };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    out[argv[i].replace(/^--/, '')] = argv[i + 1];
  }
  out.runs = Number(out.runs);
  out.settle = Number(out.settle);
  return out;
}

const ARGS = parseArgs();

const LCP_OBSERVER = () => {
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

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function visit(browser, url, token) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  if (token) {
    await context.addInitScript((value) => window.localStorage.setItem('helio-token', value), token);
  }
  await context.addInitScript(LCP_OBSERVER);
  const page = await context.newPage();
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
  const started = Date.now();
  await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
  const loaded = Date.now() - started;
  await page.waitForTimeout(ARGS.settle);
  const lcp = await page.evaluate(() => window.__lcp);
  const hash = await page.evaluate(() => window.location.hash);
  const js = (await Promise.all(scripts)).filter(Boolean);
  await context.close();
  return {
    lcp: lcp.time,
    lcpElement: lcp.element,
    hash,
    loadedMs: loaded,
    jsFiles: js.length,
    jsRaw: js.reduce((a, x) => a + x.raw, 0),
    jsGzip: js.reduce((a, x) => a + x.gzip, 0),
    jsWire: js.reduce((a, x) => a + x.wire, 0),
    gzipped: js.every((x) => x.encoding === 'gzip'),
  };
}

async function main() {
  const a = ARGS;
  const browser = await chromium.launch({
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
  try {
    const out = { chromium: browser.version(), runs: a.runs, baseline: null, routes: [] };
    if (a.baseline) {
      const runs = [];
      for (let i = 0; i < a.runs; i++) runs.push(await visit(browser, a.baseline, ''));
      out.baseline = { lcp: median(runs.map((r) => r.lcp)), runs };
    }
    for (const route of a.routes.split(',')) {
      const runs = [];
      for (let i = 0; i < a.runs; i++) {
        runs.push(await visit(browser, `${a.base}/#${route}`, route === '/login' ? '' : a.token));
      }
      out.routes.push({
        route,
        hash: runs[runs.length - 1].hash,
        lcp: median(runs.map((r) => r.lcp)),
        lcpElement: runs[runs.length - 1].lcpElement,
        jsFiles: Math.max(...runs.map((r) => r.jsFiles)),
        jsRaw: Math.max(...runs.map((r) => r.jsRaw)),
        jsGzip: Math.max(...runs.map((r) => r.jsGzip)),
        jsWire: Math.max(...runs.map((r) => r.jsWire)),
        gzipped: runs.every((r) => r.gzipped),
        runs: runs.map((r) => Math.round(r.lcp)),
      });
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
