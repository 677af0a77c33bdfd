// Measures the chart decision of docs/frontend.md: draw time of one 100,000-point line with
// the console's own SVG chart geometry and with uPlot (canvas) in headless Chromium, and
// uPlot's size. uPlot is not a dependency: unpack its npm package and point UPLOT_DIR at it
// (mkdir /tmp/u && cd /tmp/u && npm pack uplot@1.6 && tar xzf uplot-*.tgz).
//
//   UPLOT_DIR=/tmp/u/package node bench/chart.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const uplot = process.env.UPLOT_DIR;
if (!uplot) {
  console.error('set UPLOT_DIR to an unpacked uplot package (see the head of this file)');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'chart-bench-'));
execFileSync('npx', ['esbuild', 'bench/chart-entry.ts', '--bundle', '--format=iife', '--minify', '--tsconfig=tsconfig.app.json', `--outfile=${dir}/own.js`], { stdio: 'inherit' });
const own = readFileSync(`${dir}/own.js`);
const up = readFileSync(join(uplot, 'dist/uPlot.iife.min.js'));
writeFileSync(
  `${dir}/index.html`,
  `<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="${join(uplot, 'dist/uPlot.min.css')}">
   <div id="own"></div><div id="up"></div><script src="own.js"></script><script src="${join(uplot, 'dist/uPlot.iife.min.js')}"></script>`,
);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(`file://${dir}/index.html`);
const result = await page.evaluate(async () => {
  const n = 100_000;
  const values = Array.from({ length: n }, (_, i) => Math.max(0, Math.sin((i / n) * Math.PI * 40) * 500 + Math.sin(i) * 20));
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const median = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const ownTimes = [];
  const upTimes = [];
  for (let run = 0; run < 5; run++) {
    let t = performance.now();
    window.drawOwn(document.getElementById('own'), values, 1200, 400);
    await frame();
    ownTimes.push(performance.now() - t);
    const host = document.getElementById('up');
    host.replaceChildren();
    t = performance.now();
    const xs = Float64Array.from(values, (_, i) => i);
    new window.uPlot({ width: 1200, height: 400, series: [{}, { stroke: '#165dff' }] }, [xs, values], host);
    await frame();
    upTimes.push(performance.now() - t);
  }
  return { own: median(ownTimes), uplot: median(upTimes) };
});
await browser.close();
console.log(JSON.stringify({
  points: 100000,
  ownDrawMs: Math.round(result.own),
  uplotDrawMs: Math.round(result.uplot),
  uplotGzipKb: +(gzipSync(up, { level: 9 }).length / 1024).toFixed(1),
  ownGeometryGzipKb: +(gzipSync(own, { level: 9 }).length / 1024).toFixed(1),
}));
