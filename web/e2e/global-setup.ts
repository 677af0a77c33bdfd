import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakeLLM } from './fake-llm';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

// The demo back-fills a year of history at first start: about a minute on two idle cores, several
// on a busy machine.
const READY_TIMEOUT_MS = 360_000;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`helio exited with code ${child.exitCode} before it was ready:\n${log()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.status === 200) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 250));
  }
  throw new Error(`helio was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${log()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((done) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts the real binary once for the whole run: `helio serve --demo --sim-speed 30` on a free port with a fresh
 * data directory, waits for /readyz, and stops it (and removes the data) at the end.
 */
export default async function setup(project: TestProject) {
  const bin = resolve(process.cwd(), process.env.HELIO_BIN ?? '../bin/helio');
  if (!existsSync(bin)) {
    throw new Error(`no helio binary at ${bin}: run "make build" at the repository root, or set HELIO_BIN`);
  }
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'helio-e2e-'));
  // A data directory the demo has already back-filled (scripts/e2e.mjs makes one for all the
  // shards): the server resumes it, generating only the minutes since, instead of a year.
  const seed = process.env.HELIO_E2E_SEED;
  if (seed && statSync(seed, { throwIfNoEntry: false })?.isDirectory()) {
    cpSync(seed, data, { recursive: true });
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  // --sim-speed 30: a live simulator step every 10 s, so real-time figures change while tests watch.
  // The assistant answers through a local stand-in for a hosted language model.
  const llm = await startFakeLLM();
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data', data, '--demo', '--sim-speed', '30',
    '--llm-url', llm.url, '--llm-model', 'helio-test-llm'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const teardown = async () => {
    await stop(child);
    await llm.close();
    rmSync(data, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(baseUrl, child, () => output);
    const page = await (await fetch(`${baseUrl}/`)).text();
    if (!page.includes('id="root"')) {
      throw new Error(`${bin} was built without the console: run "make build" at the repository root`);
    }
  } catch (error) {
    await teardown();
    throw error;
  }

  project.provide('baseUrl', baseUrl);
  return teardown;
}
