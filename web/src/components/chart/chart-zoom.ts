import type { ChartSpec } from './chart-spec';

/** The categories shown when zoomed: first and last index of the whole spec, both included. */
export type ZoomRange = readonly [number, number];

/** A zoomed view shows at least this many categories. */
export const MIN_ZOOM = 2;

/** A drag shorter than this (in pixels) is a click, not a zoom. */
export const MIN_DRAG = 6;

/** The range within 0..count-1, at least MIN_ZOOM wide; null when that is the whole spec. */
export function clampRange(first: number, last: number, count: number): ZoomRange | null {
  if (count <= MIN_ZOOM) {
    return null;
  }
  let low = Math.max(0, Math.min(first, last));
  let high = Math.min(count - 1, Math.max(first, last));
  if (high - low + 1 < MIN_ZOOM) {
    high = Math.min(count - 1, low + MIN_ZOOM - 1);
    low = Math.max(0, high - MIN_ZOOM + 1);
  }
  return low === 0 && high === count - 1 ? null : [low, high];
}

/**
 * The range a drag from x pixel `from` to `to` selects, given the categories under them in the
 * view shown (categoryAt of its layout) and the view's offset into the whole spec; null for a
 * drag too short to be meant or one selecting everything.
 */
export function dragRange(
  from: number,
  to: number,
  categoryAt: (x: number) => number | null,
  offset: number,
  count: number,
): ZoomRange | null {
  if (Math.abs(to - from) < MIN_DRAG) {
    return null;
  }
  const a = categoryAt(Math.min(from, to));
  const b = categoryAt(Math.max(from, to));
  if (a === null && b === null) {
    return null;
  }
  const first = a ?? 0;
  const last = b ?? count - 1 - offset;
  return clampRange(offset + first, offset + last, count);
}

/**
 * Zooms by the keyboard: in (halving the shown width) or out (doubling it) around a category of
 * the whole spec, the middle of the view when none is highlighted.
 */
export function zoomAround(range: ZoomRange | null, count: number, around: number | null, direction: 'in' | 'out'): ZoomRange | null {
  const [first, last] = range ?? [0, count - 1];
  const width = last - first + 1;
  const centre = around ?? (first + last) / 2;
  const next = direction === 'in' ? Math.max(MIN_ZOOM, Math.ceil(width / 2)) : width * 2;
  if (next >= count) {
    return null;
  }
  let low = Math.round(centre - (next - 1) / 2);
  low = Math.max(0, Math.min(count - next, low));
  return clampRange(low, low + next - 1, count);
}

/** The spec cut down to the range: its categories and each series' values in it. */
export function sliceSpec(spec: ChartSpec, range: ZoomRange | null): ChartSpec {
  if (!range) {
    return spec;
  }
  const [first, last] = range;
  return {
    ...spec,
    categories: spec.categories.slice(first, last + 1),
    series: spec.series.map((series) => ({ ...series, data: series.data.slice(first, last + 1) })),
  };
}
