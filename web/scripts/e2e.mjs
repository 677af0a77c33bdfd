// The browser suite, as HELIO_E2E_SHARDS processes side by side (3 unless set): each runs one
// shard of the files (dealt by length, e2e/deal.ts) against a helio server of its own, so no
// shard sees another's writes. The demo's history is back-filled once and copied to each. The suite mostly waits on the server, the browser and live
// figures; one process keeps a core about a third busy.
//
//   npm run e2e                      every file, in shards
//   npm run e2e -- e2e/alarm.e2e.ts  the files or options given, in one process
//
// Each line a shard prints is prefixed with its number; the exit code is non-zero when any
// shard failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/**
 * Back-fills the demo's year of history once, in a data directory the shards copy: the
 * back-fill is the costly part of a server's start (about a minute of both cores), and every
 * shard would otherwise do it at the same time. Returns the directory, or undefined when the
 * seed server did not come up (each shard then back-fills on its own, and says why it failed).
 */
async function seed() {
  const bin = resolve(process.env.HELIO_BIN ?? '../bin/helio');
  const dir = mkdtempSync(join(tmpdir(), 'helio-e2e-seed-'));
  const port = await freePort();
  const started = Date.now();
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data', dir, '--demo', '--sim-speed', '30'], {
    stdio: 'ignore',
  });
  const exited = new Promise((done) => child.once('exit', done));
  let ready = false;
  while (!ready && child.exitCode === null && Date.now() - started < 360_000) {
    ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
    if (!ready) {
      await new Promise((wait) => setTimeout(wait, 250));
    }
  }
  child.kill('SIGTERM');
  await exited;
  if (!ready) {
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write('e2e: the seed server did not become ready; each shard back-fills its own\n');
    return undefined;
  }
  process.stdout.write(`e2e: demo history back-filled once in ${Math.round((Date.now() - started) / 1000)} s\n`);
  return dir;
}

function run(index, env) {
  const args = count === 1 ? [...base, ...extra] : [...base, `--shard=${index}/${count}`];
  const label = count === 1 ? '' : `[e2e ${index}/${count}] `;
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [vitest, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
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

const seeded = count > 1 ? await seed() : undefined;
const env = seeded ? { ...process.env, HELIO_E2E_SEED: seeded } : process.env;
const codes = await Promise.all(Array.from({ length: count }, (_, i) => run(i + 1, env)));
if (seeded) {
  rmSync(seeded, { recursive: true, force: true });
}
const failed = codes.filter((code) => code !== 0).length;
if (count > 1) {
  process.stdout.write(failed === 0 ? `browser suite: ${count} shards passed\n` : `browser suite: ${failed} of ${count} shards failed\n`);
}
process.exit(failed === 0 ? 0 : 1);
