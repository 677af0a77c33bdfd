import { layoutChart } from './chart-geometry';
import type { ChartSpec } from './chart-spec';
import { clampRange, dragRange, sliceSpec, zoomAround } from './chart-zoom';

const days = Array.from({ length: 30 }, (_, index) => `${index + 1}`);
const spec: ChartSpec = {
  categories: days,
  series: [{ name: 'PV', kind: 'bar', data: days.map((day) => Number(day) * 10) }],
};

describe('zoom range maths', () => {
  it('keeps a range inside the categories and at least two wide', () => {
    expect(clampRange(3, 7, 30)).toEqual([3, 7]);
    expect(clampRange(7, 3, 30)).toEqual([3, 7]);
    expect(clampRange(-4, 40, 30)).toBeNull();
    expect(clampRange(0, 29, 30)).toBeNull();
    expect(clampRange(29, 29, 30)).toEqual([28, 29]);
    expect(clampRange(5, 5, 30)).toEqual([5, 6]);
    // too few categories to zoom
    expect(clampRange(0, 0, 2)).toBeNull();
  });

  it('turns a drag into the categories under its ends, either way round', () => {
    const layout = layoutChart(spec, new Set(), 600, 300);
    const at = (category: number) => layout.x(category);
    expect(dragRange(at(4), at(9), layout.categoryAt, 0, 30)).toEqual([4, 9]);
    expect(dragRange(at(9), at(4), layout.categoryAt, 0, 30)).toEqual([4, 9]);
    // a click is no zoom
    expect(dragRange(at(4), at(4) + 3, layout.categoryAt, 0, 30)).toBeNull();
    // dragging past the plot's edge stops at the first or last category
    expect(dragRange(layout.right + 50, at(25), layout.categoryAt, 0, 30)).toEqual([25, 29]);
  });

  it('reads a drag in a zoomed view against the whole spec', () => {
    const view = sliceSpec(spec, [10, 19]);
    const layout = layoutChart(view, new Set(), 600, 300);
    expect(dragRange(layout.x(2), layout.x(5), layout.categoryAt, 10, 30)).toEqual([12, 15]);
  });

  it('zooms in and out by halves around a category, never past the edges', () => {
    // 15 of 30 around the middle (14.5): 7.5 rounds up
    expect(zoomAround(null, 30, null, 'in')).toEqual([8, 22]);
    expect(zoomAround(null, 30, 0, 'in')).toEqual([0, 14]);
    expect(zoomAround(null, 30, 29, 'in')).toEqual([15, 29]);
    expect(zoomAround([0, 14], 30, 3, 'in')).toEqual([0, 7]);
    expect(zoomAround([10, 11], 30, 10, 'in')).toEqual([10, 11]);
    // 10 around 12: 12 − 4.5 rounds up to 8
    expect(zoomAround([10, 14], 30, null, 'out')).toEqual([8, 17]);
    expect(zoomAround([0, 14], 30, null, 'out')).toBeNull();
  });

  it('slices the categories and every series to the range', () => {
    const view = sliceSpec(spec, [2, 4]);
    expect(view.categories).toEqual(['3', '4', '5']);
    expect(view.series[0]!.data).toEqual([30, 40, 50]);
    expect(sliceSpec(spec, null)).toBe(spec);
  });
});
