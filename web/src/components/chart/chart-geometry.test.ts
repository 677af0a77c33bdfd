import { alignedTicks, layoutChart, linePath, monotoneTangents, niceStep, niceTicks, type Point, runs, stackValues } from './chart-geometry';
import type { ChartSpec } from './chart-spec';

/** The y of every curve segment of a path, sampled, with its end points. */
function segments(path: string): { from: Point; to: Point; samples: number[] }[] {
  const numbers = (text: string) => text.match(/-?\d+(\.\d+)?/g)!.map(Number);
  const [x0, y0] = numbers(/^M([^C]+)/.exec(path)![1]!);
  let from: Point = [x0!, y0!];
  return [...path.matchAll(/C([^C]+)/g)].map((match) => {
    const [, c1y, , c2y, x, y] = numbers(match[1]!);
    const start = from;
    const samples = Array.from({ length: 41 }, (_, index) => {
      const t = index / 40;
      const u = 1 - t;
      return u * u * u * start[1] + 3 * u * u * t * c1y! + 3 * u * t * t * c2y! + t * t * t * y!;
    });
    from = [x!, y!];
    return { from: start, to: [x!, y!], samples };
  });
}

describe('ticks', () => {
  it('steps by 1, 2 or 5 × 10^n', () => {
    expect(niceStep(0.9)).toBe(1);
    expect(niceStep(2.4)).toBe(2);
    expect(niceStep(4.6)).toBe(5);
    expect(niceStep(600_000)).toBe(500_000);
    expect(niceStep(0.025)).toBe(0.02);
    expect(niceStep(0.031)).toBe(0.05);
    expect(niceStep(0.2, true)).toBe(1);
  });

  it('covers the data and zero', () => {
    expect(niceTicks(0, 23).values).toEqual([0, 5, 10, 15, 20, 25]);
    expect(niceTicks(120, 3_000_000).values).toEqual([0, 500_000, 1_000_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000]);
    expect(niceTicks(0.1, 0.7).values).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
  });

  it('goes below zero for negative values', () => {
    const ticks = niceTicks(-3, 12);
    expect(ticks.values).toEqual([-5, 0, 5, 10, 15]);
    expect(niceTicks(-40, -10).max).toBe(0);
  });

  it('fits the data alone when zero is not wanted', () => {
    const ticks = niceTicks(221, 236, { zero: false });
    expect(ticks.min).toBeGreaterThan(200);
    expect(ticks.min).toBeLessThanOrEqual(221);
    expect(ticks.max).toBeGreaterThanOrEqual(236);
  });

  it('draws 0 to 1 with no data or only zeros, and whole steps for counts', () => {
    const empty = niceTicks(Infinity, -Infinity);
    expect([empty.min, empty.max]).toEqual([0, 1]);
    expect(niceTicks(0, 0, { integer: true }).values).toEqual([0, 1]);
    expect(niceTicks(0, 3, { integer: true }).step).toBe(1);
  });

  it('aligns a second axis on the first one\'s lines', () => {
    const ticks = alignedTicks(0, 100, 6);
    expect(ticks.values).toHaveLength(7);
    expect(ticks.max).toBeGreaterThanOrEqual(100);
    expect(ticks.values).toEqual([0, 20, 40, 60, 80, 100, 120]);
  });
});

describe('stacking', () => {
  const series = [
    { name: 'a', kind: 'bar' as const, stack: 's', data: [1, 2, -1] },
    { name: 'b', kind: 'bar' as const, stack: 's', data: [3, null, -2] },
    { name: 'c', kind: 'bar' as const, data: [5, 5, 5] },
  ];

  it('piles values of the same stack, positives up and negatives down', () => {
    const stacked = stackValues(series, [true, true, true]);
    expect(stacked[0]).toEqual([[0, 1], [0, 2], [0, -1]]);
    expect(stacked[1]).toEqual([[1, 4], null, [-1, -3]]);
    expect(stacked[2]).toEqual([[0, 5], [0, 5], [0, 5]]);
  });

  it('leaves hidden series out of the pile', () => {
    const stacked = stackValues(series, [false, true, true]);
    expect(stacked[1]![0]).toEqual([0, 3]);
  });

  it('draws stacked bars end to end, their total on the axis', () => {
    const spec: ChartSpec = { categories: ['x', 'y', 'z'], series: series.slice(0, 2) };
    const layout = layoutChart(spec, new Set(), 600, 300);
    const axis = layout.axes[0]!;
    const first = layout.bars.find((bar) => bar.series === 0 && bar.category === 0)!;
    const second = layout.bars.find((bar) => bar.series === 1 && bar.category === 0)!;
    expect(second.y + second.height).toBeCloseTo(first.y);
    expect(second.y).toBeCloseTo(axis.y(4));
    expect(first.x).toBe(second.x);
    expect(axis.ticks.min).toBeLessThanOrEqual(-3);
  });
});

describe('lines', () => {
  it('never overshoots the values on either side of a segment when smooth', () => {
    const points: Point[] = [[0, 100], [10, 10], [20, 12], [30, 90], [40, 90], [50, 0], [60, 200], [70, 199]];
    const path = linePath(points, true);
    for (const { from, to, samples } of segments(path)) {
      const low = Math.min(from[1], to[1]) - 0.11;
      const high = Math.max(from[1], to[1]) + 0.11;
      for (const y of samples) {
        expect(y).toBeGreaterThanOrEqual(low);
        expect(y).toBeLessThanOrEqual(high);
      }
    }
  });

  it('is flat where the data is flat', () => {
    expect(monotoneTangents([[0, 5], [1, 5], [2, 5]])).toEqual([0, 0, 0]);
  });

  it('breaks at nulls and keeps single values as dots', () => {
    expect(runs([1, 2, null, 3, null, null, 4, 5])).toEqual([
      { start: 0, values: [1, 2] },
      { start: 3, values: [3] },
      { start: 6, values: [4, 5] },
    ]);
    const spec: ChartSpec = {
      categories: ['a', 'b', 'c', 'd', 'e', 'f'],
      series: [{ name: 'l', kind: 'line', area: true, data: [1, 2, null, 3, null, 4] }],
    };
    const [line] = layoutChart(spec, new Set(), 600, 300).lines;
    expect(line!.paths).toHaveLength(1);
    expect(line!.areas).toHaveLength(1);
    expect(line!.areas[0]).toMatch(/Z$/);
    expect(line!.lone).toHaveLength(2);
  });
});

describe('layout', () => {
  it('thins the x labels so they never overlap', () => {
    const categories = Array.from({ length: 96 }, (_, index) => `${String(Math.floor(index / 4)).padStart(2, '0')}:${String((index % 4) * 15).padStart(2, '0')}`);
    const layout = layoutChart({ categories, series: [{ name: 'p', kind: 'line', data: categories.map(() => 1) }] }, new Set(), 500, 300);
    const spacing = layout.band * layout.labelEvery;
    expect(layout.labelEvery).toBeGreaterThan(1);
    expect(spacing).toBeGreaterThan(5 * 6);
  });

  it('leaves hidden series out of the drawing and the scale', () => {
    const spec: ChartSpec = {
      categories: ['a', 'b'],
      series: [
        { name: 'small', kind: 'bar', data: [1, 2] },
        { name: 'large', kind: 'bar', data: [100, 200] },
      ],
    };
    expect(layoutChart(spec, new Set(), 600, 300).axes[0]!.ticks.max).toBe(200);
    const layout = layoutChart(spec, new Set(['large']), 600, 300);
    expect(layout.bars.every((bar) => bar.series === 0)).toBe(true);
    expect(layout.axes[0]!.ticks.max).toBe(2);
  });

  it('shades the highlighted category of a bar chart even when every bar is zero', () => {
    const bars: ChartSpec = { categories: ['a', 'b'], series: [{ name: 'faults', kind: 'bar', data: [0, 0] }] };
    expect(layoutChart(bars, new Set(), 600, 300).hasBars).toBe(true);
    expect(layoutChart(bars, new Set(['faults']), 600, 300).hasBars).toBe(false);
  });

  it('puts the category under the pointer', () => {
    const layout = layoutChart({ categories: ['a', 'b', 'c'], series: [] }, new Set(), 600, 300);
    expect(layout.categoryAt(layout.x(1))).toBe(1);
    expect(layout.categoryAt(layout.x(2) + layout.band / 2 - 1)).toBe(2);
    expect(layout.categoryAt(0)).toBeNull();
  });
});
