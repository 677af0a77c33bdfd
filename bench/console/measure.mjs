// Measures the console in headless Chromium, one cold visit (fresh profile, empty cache)
// per route and run: the JavaScript the route loads (gzip -9 of each script, and the bytes
// on the wire) and its Largest Contentful Paint. Run by the benchmark (go run ./bench):
//
//   node bench/console/measure.mjs --base http://127.0.0.1:PORT --token TOKEN \
//        --baseline http://127.0.0.1:PORT2/ --runs 5 --routes /login,/monitor,/station
//
// Prints one JSON object. playwright-core comes from web/node_modules.
import { LCP_OBSERVER, launch, median, parseArgs, trackScripts } from './lib.mjs';

const ARGS = parseArgs({ runs: 3, routes: '/login,/monitor', settle: 1000 });
ARGS.runs = Number(ARGS.runs);
ARGS.settle = Number(ARGS.settle);

async function visit(browser, url, token) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  if (token) {
    await context.addInitScript((value) => window.localStorage.setItem('helio-token', value), token);
  }
  await context.addInitScript(LCP_OBSERVER);
  const page = await context.newPage();
  const scripts = trackScripts(page);
  const started = Date.now();
  await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
  const loaded = Date.now() - started;
  await page.waitForTimeout(ARGS.settle);
  const lcp = await page.evaluate(() => window.__lcp);
  const hash = await page.evaluate(() => window.location.hash);
  const js = await scripts();
  await context.close();
  return { lcp: lcp.time, lcpElement: lcp.element, hash, loadedMs: loaded, ...js };
}

async function main() {
  const a = ARGS;
  const browser = await launch();
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
