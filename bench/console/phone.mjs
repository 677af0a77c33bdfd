// Measures a console route as a crew member's phone opens it: 390 × 844 at 3× with touch, the
// CPU slowed 4× (Chromium's own throttling) and every byte through a slow-4G link — Lighthouse's
// packet-level figures: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up — made by a TCP proxy
// in this process between the browser and the server, so the service worker's own fetches go
// through it too. Each run is a cold visit (fresh profile, empty caches) and then, in the same
// profile once its service worker is ready, a warm one (the console from the worker's cache;
// the data still from the server). Run by the benchmark (go run ./bench):
//
//   node bench/console/phone.mjs --base http://127.0.0.1:PORT --token TOKEN --route /operations/workorder --runs 3
//
// Prints one JSON object. playwright-core comes from web/node_modules.
import net from 'node:net';
import { LCP_OBSERVER, launch, median, parseArgs, trackScripts } from './lib.mjs';

const ARGS = parseArgs({ runs: 3, route: '/operations/workorder', settle: 1500, rtt: 150, down: 1_638_400, up: 750_000, cpu: 4 });
for (const key of ['runs', 'settle', 'rtt', 'down', 'up', 'cpu']) ARGS[key] = Number(ARGS[key]);

/**
 * One direction of the link: a chunk leaves half a round trip after it arrived, and no sooner
 * than the link has sent what came before it at `bitsPerSecond` (shared by every connection).
 */
function link(bitsPerSecond, oneWayMs) {
  let free = 0;
  return (size) => {
    const now = performance.now();
    const start = Math.max(now + oneWayMs, free);
    free = start + (size * 8 * 1000) / bitsPerSecond;
    return free - now;
  };
}

/** A TCP proxy on 127.0.0.1 to `target` (host:port) through a slow link; resolves to its address. */
function throttledProxy(target, { rtt, down, up }) {
  const [host, port] = target.split(':');
  const downLink = link(down, rtt / 2);
  const upLink = link(up, rtt / 2);
  const pipe = (from, to, delayOf) => {
    // chunks keep their order: each waits for its own time, never before the one ahead of it
    let last = Promise.resolve();
    from.on('data', (chunk) => {
      const wait = delayOf(chunk.length);
      const ahead = last;
      last = Promise.all([ahead, new Promise((resolve) => setTimeout(resolve, wait))]).then(() => {
        if (!to.destroyed) to.write(chunk);
      });
    });
    from.on('end', () => last.then(() => to.end()));
    from.on('error', () => to.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    pipe(client, upstream, upLink);
    pipe(upstream, client, downLink);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, addr: `127.0.0.1:${server.address().port}` })));
}

const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
};

/** Loads url in page with the CPU slowed; its LCP and what it loaded. */
async function measure(context, page, url) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: ARGS.cpu });
  const scripts = trackScripts(page);
  const fromWorker = [];
  page.on('response', (response) => {
    if (response.fromServiceWorker()) fromWorker.push(response.url());
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 });
  const loaded = Date.now() - started;
  await page.waitForTimeout(ARGS.settle);
  const lcp = await page.evaluate(() => window.__lcp);
  // where the time went: the page's own loads, in the order they ended
  const timeline = await page.evaluate(() =>
    [
      ...performance.getEntriesByType('navigation').map((e) => ({ name: 'page', start: 0, end: e.responseEnd, size: e.transferSize })),
      ...performance
        .getEntriesByType('resource')
        .map((e) => ({ name: e.name.replace(location.origin, ''), start: e.startTime, end: e.responseEnd, size: e.transferSize })),
    ]
      .sort((a, b) => a.end - b.end)
      .map((e) => ({ ...e, start: Math.round(e.start), end: Math.round(e.end) })),
  );
  // the scripts in by the time the largest paint was drawn: what the first screen needed
  const before = new Set(
    await page.evaluate(
      (lcpTime) =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.responseEnd <= lcpTime)
          .map((e) => e.name),
      lcp.time,
    ),
  );
  const js = await scripts(before);
  return { lcp: lcp.time, lcpElement: lcp.element, loadedMs: loaded, fromWorker: fromWorker.length, timeline, ...js };
}

async function run(browser, base) {
  const context = await browser.newContext(PHONE);
  try {
    await context.addInitScript((value) => window.localStorage.setItem('helio-token', value), ARGS.token);
    await context.addInitScript(LCP_OBSERVER);
    const url = `${base}/#${ARGS.route}`;
    const first = await context.newPage();
    const cold = await measure(context, first, url);
    // the worker keeps the console's files once it is installed and active
    const ready = await first.evaluate(
      () =>
        Promise.race([
          navigator.serviceWorker.ready.then(() => true),
          new Promise((resolve) => setTimeout(resolve, 60_000, false)),
        ]),
    );
    await first.close();
    const second = await context.newPage();
    const warm = await measure(context, second, url);
    await second.close();
    return { cold, warm, workerReady: ready };
  } finally {
    await context.close();
  }
}

async function main() {
  const target = new URL(ARGS.base).host;
  const proxy = await throttledProxy(target, ARGS);
  const browser = await launch();
  try {
    const runs = [];
    for (let i = 0; i < ARGS.runs; i++) runs.push(await run(browser, `http://${proxy.addr}`));
    const pick = (key) => ({
      lcp: median(runs.map((r) => r[key].lcp)),
      lcpElement: runs[runs.length - 1][key].lcpElement,
      runs: runs.map((r) => Math.round(r[key].lcp)),
      loadedMs: median(runs.map((r) => r[key].loadedMs)),
      jsFiles: Math.max(...runs.map((r) => r[key].jsFiles)),
      jsRaw: Math.max(...runs.map((r) => r[key].jsRaw)),
      jsGzip: Math.max(...runs.map((r) => r[key].jsGzip)),
      jsWire: Math.max(...runs.map((r) => r[key].jsWire)),
      jsFirstFiles: Math.max(...runs.map((r) => r[key].jsFirstFiles)),
      jsFirstGzip: Math.max(...runs.map((r) => r[key].jsFirstGzip)),
      fromWorker: Math.min(...runs.map((r) => r[key].fromWorker)),
      timeline: runs[runs.length - 1][key].timeline,
    });
    const out = {
      chromium: browser.version(),
      route: ARGS.route,
      link: { rttMs: ARGS.rtt, downBits: ARGS.down, upBits: ARGS.up },
      cpuSlowdown: ARGS.cpu,
      workerReady: runs.every((r) => r.workerReady),
      cold: pick('cold'),
      warm: pick('warm'),
    };
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await browser.close();
    proxy.server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
