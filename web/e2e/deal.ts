// The browser suite runs as several shards side by side, each against a server of its own
// (scripts/e2e.mjs). Vitest's own sharding deals out files by count; the files here differ a
// lot in length (the truth suite waits on live figures for minutes, a door test takes
// seconds), so they are dealt by how long each took in a full run instead: the longest first,
// each to the shard with the least work so far. Every shard's process computes the same deal.

/** Seconds each file took in a full run on two cores (refresh when a file grows or shrinks a lot). */
export const SECONDS: Record<string, number> = {
  'truth.e2e.ts': 149,
  'console.e2e.ts': 100,
  'operations.e2e.ts': 74,
  'organisation.e2e.ts': 66,
  'layout.e2e.ts': 53,
  'a11y.e2e.ts': 52,
  'phone-layout.e2e.ts': 53,
  'shell.e2e.ts': 43,
  'analysis.e2e.ts': 28,
  'alarm.e2e.ts': 25,
  'history-import.e2e.ts': 22,
  'assistant.e2e.ts': 16,
  'field.e2e.ts': 15,
  'ingest-doors.e2e.ts': 15,
  'figures.e2e.ts': 11,
  'keyboard.e2e.ts': 10,
  'ingest-keys.e2e.ts': 8,
  'line-ingest.e2e.ts': 6,
  'webhooks.e2e.ts': 33,
  'push.e2e.ts': 27,
  'escalation.e2e.ts': 20,
  'checklists.e2e.ts': 20,
  'offline-orders.e2e.ts': 66,
};

/** What a file not in the table is counted as: a middling file. */
const UNKNOWN_SECONDS = 30;

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

export function secondsOf(path: string): number {
  return SECONDS[baseName(path)] ?? UNKNOWN_SECONDS;
}

/**
 * Deals paths to count shards, the longest first, each to the shard with the least work so
 * far (ties to the lower shard, paths of equal length by name, so the deal is the same in
 * every process). Returns the paths of each shard.
 */
export function deal(paths: string[], count: number): string[][] {
  const shards = Array.from({ length: count }, () => ({ seconds: 0, paths: [] as string[] }));
  const ordered = [...paths].sort((a, b) => secondsOf(b) - secondsOf(a) || baseName(a).localeCompare(baseName(b)));
  for (const path of ordered) {
    let lightest = 0;
    shards.forEach((shard, i) => {
      if (shard.seconds < (shards[lightest]?.seconds ?? 0)) {
        lightest = i;
      }
    });
    const shard = shards[lightest];
    if (shard) {
      shard.seconds += secondsOf(path);
      shard.paths.push(path);
    }
  }
  return shards.map((shard) => shard.paths);
}
