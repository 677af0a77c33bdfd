// The browser suite, as HELIO_E2E_SHARDS processes side by side (3 unless set): each runs one
// shard of the files (dealt by length, e2e/deal.ts) against a helio server of its own, so no
// shard sees another's writes. The suite mostly waits on the server, the browser and live
// figures; one process keeps a core about a third busy.
//
//   npm run e2e                      every file, in shards
//   npm run e2e -- e2e/alarm.e2e.ts  the files or options given, in one process
//
// Each line a shard prints is prefixed with its number; the exit code is non-zero when any
// shard failed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const base = ['run', '--config', 'vitest.e2e.config.ts'];
const extra = process.argv.slice(2);
const count = extra.length > 0 ? 1 : Math.max(1, Number.parseInt(process.env.HELIO_E2E_SHARDS ?? '3', 10) || 3);

const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) {
      child.kill(signal);
    }
    process.exit(130);
  });
}

function prefixed(stream, label, out) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      out.write(`${label}${line}\n`);
    }
  });
  stream.on('end', () => {
    if (rest) {
      out.write(`${label}${rest}\n`);
    }
  });
}

function run(index) {
  const args = count === 1 ? [...base, ...extra] : [...base, `--shard=${index}/${count}`];
  const label = count === 1 ? '' : `[e2e ${index}/${count}] `;
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [vitest, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    prefixed(child.stdout, label, process.stdout);
    prefixed(child.stderr, label, process.stderr);
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`${label}${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`);
      done(code ?? 1);
    });
  });
}

const codes = await Promise.all(Array.from({ length: count }, (_, i) => run(i + 1)));
const failed = codes.filter((code) => code !== 0).length;
if (count > 1) {
  process.stdout.write(failed === 0 ? `browser suite: ${count} shards passed\n` : `browser suite: ${failed} of ${count} shards failed\n`);
}
process.exit(failed === 0 ? 0 : 1);
