import { defineConfig } from 'vitest/config';
import DurationSequencer from './e2e/sequencer';

// Browser end-to-end tests: real headless Chromium (driven by playwright-core) against the real
// helio binary started once by the global setup. One file at a time, one worker, long timeouts.
// `npm run e2e` runs several such processes side by side, one shard of the files each, with a
// server each (scripts/e2e.mjs); the sequencer deals the files by their length.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    sequence: { sequencer: DurationSequencer },
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    // a poll waits on the real server, which answers more slowly while the rest of the suite
    // loads the machine (Vitest's own default gives up after one second)
    expect: { poll: { timeout: 10_000 } },
  },
});
