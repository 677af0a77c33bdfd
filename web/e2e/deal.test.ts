import { describe, expect, it } from 'vitest';
import { deal, SECONDS, secondsOf } from './deal';

const FILES = Object.keys(SECONDS).map((name) => `/repo/web/e2e/${name}`);

describe('deal', () => {
  it('gives every file to exactly one shard', () => {
    for (const count of [1, 2, 3, 4]) {
      const shards = deal([...FILES, '/repo/web/e2e/new.e2e.ts'], count);
      expect(shards).toHaveLength(count);
      expect(shards.flat().sort()).toEqual([...FILES, '/repo/web/e2e/new.e2e.ts'].sort());
    }
  });

  it('balances the shards by length, not by count', () => {
    const shards = deal(FILES, 3);
    const loads = shards.map((paths) => paths.reduce((sum, path) => sum + secondsOf(path), 0));
    const total = loads.reduce((a, b) => a + b, 0);
    // the longest file alone is under a third of the whole: no shard ends far past a third
    expect(Math.max(...loads)).toBeLessThan(total / 3 + 20);
    // the two longest files are apart
    const longest = shards.findIndex((paths) => paths.some((path) => path.endsWith('/truth.e2e.ts')));
    expect(shards[longest]?.some((path) => path.endsWith('/console.e2e.ts'))).toBe(false);
  });

  it('deals the same whatever order the files come in', () => {
    expect(deal([...FILES].reverse(), 3)).toEqual(deal(FILES, 3));
  });

  it('counts a file it has not timed as a middling one', () => {
    expect(secondsOf('/x/e2e/unknown.e2e.ts')).toBeGreaterThan(0);
    expect(secondsOf('C:\\x\\e2e\\truth.e2e.ts')).toBe(SECONDS['truth.e2e.ts']);
  });
});
