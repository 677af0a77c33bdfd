import { formatNumber } from '@/lib/format';
import type { ChartAxis, ChartSeries, ChartSpec } from './chart-spec';

/** An axis's tick values, evenly spaced by a step of 1, 2 or 5 × 10^n. */
export interface Ticks {
  min: number;
  max: number;
  step: number;
  values: number[];
}

interface TickOptions {
  zero?: boolean;
  integer?: boolean;
}

/** The 1, 2 or 5 × 10^n nearest to `raw` (whole numbers only when `integer`). */
export function niceStep(raw: number, integer = false): number {
  if (!(raw > 0) || !Number.isFinite(raw)) {
    return 1;
  }
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const step = (fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10) * power;
  return integer ? Math.max(1, Math.round(step)) : step;
}

/** The next larger nice step. */
function nextStep(step: number, integer: boolean): number {
  const power = 10 ** Math.floor(Math.log10(step) + 1e-9);
  const fraction = Math.round(step / power);
  const next = (fraction === 1 ? 2 : fraction === 2 ? 5 : 10) * power;
  return integer ? Math.max(1, Math.round(next)) : next;
}

/** Drops the binary noise of repeated additions (0.30000000000000004). */
function tidy(value: number, step: number): number {
  const digits = Math.min(15, Math.max(0, 1 - Math.floor(Math.log10(step))));
  const rounded = Number(value.toFixed(digits));
  return rounded === 0 ? 0 : rounded;
}

function extent(min: number, max: number, zero: boolean): [number, number] {
  let low = Number.isFinite(min) ? min : 0;
  let high = Number.isFinite(max) ? max : 0;
  if (zero) {
    low = Math.min(0, low);
    high = Math.max(0, high);
  }
  if (low === high) {
    // Only possible without zero, or with every value at zero.
    return low === 0 ? [0, 1] : [low - Math.abs(low) * 0.1, high + Math.abs(high) * 0.1];
  }
  return [low, high];
}

function ticksFrom(start: number, step: number, intervals: number): Ticks {
  const values = Array.from({ length: intervals + 1 }, (_, index) => tidy(start + index * step, step));
  return { min: values[0]!, max: values[values.length - 1]!, step, values };
}

/** About five ticks covering min..max (and zero, unless `zero` is false). */
export function niceTicks(min: number, max: number, { zero = true, integer = false }: TickOptions = {}): Ticks {
  const [low, high] = extent(min, max, zero);
  const step = niceStep((high - low) / 5, integer);
  const start = Math.floor(low / step + 1e-9) * step;
  const end = Math.ceil(high / step - 1e-9) * step;
  return ticksFrom(start, step, Math.max(1, Math.round((end - start) / step)));
}

/** Ticks over exactly `intervals` intervals, so a second axis's ticks fall on the first one's lines. */
export function alignedTicks(min: number, max: number, intervals: number, { zero = true, integer = false }: TickOptions = {}): Ticks {
  const [low, high] = extent(min, max, zero);
  let step = niceStep((high - low) / intervals, integer);
  let start = Math.floor(low / step + 1e-9) * step;
  for (let tries = 0; tries < 60 && start + intervals * step < high - step * 1e-9; tries++) {
    step = nextStep(step, integer);
    start = Math.floor(low / step + 1e-9) * step;
  }
  return ticksFrom(start, step, intervals);
}

/** Each series' [base, top] per category; stacked series pile up, positives upwards and negatives downwards. */
export function stackValues(series: readonly ChartSeries[], visible: readonly boolean[]): ([number, number] | null)[][] {
  const piles = new Map<string, { up: number[]; down: number[] }>();
  return series.map((one, index) => {
    let pile: { up: number[]; down: number[] } | undefined;
    if (one.stack && visible[index]) {
      const key = `${one.axis ?? 0}:${one.stack}`;
      pile = piles.get(key) ?? { up: [], down: [] };
      piles.set(key, pile);
    }
    return one.data.map((value, at) => {
      if (value === null || !Number.isFinite(value)) {
        return null;
      }
      if (!pile) {
        return [0, value];
      }
      const side = value >= 0 ? pile.up : pile.down;
      const base = side[at] ?? 0;
      side[at] = base + value;
      return [base, base + value];
    });
  });
}

export type Point = [number, number];

/** Tangents of a monotone cubic through the points (Fritsch–Carlson): the curve never overshoots. */
export function monotoneTangents(points: readonly Point[]): number[] {
  const count = points.length;
  const secants = points.slice(1).map(([x, y], index) => {
    const [x0, y0] = points[index]!;
    return x === x0 ? 0 : (y - y0) / (x - x0);
  });
  const tangents = new Array<number>(count).fill(0);
  for (let index = 1; index < count - 1; index++) {
    const h0 = points[index]![0] - points[index - 1]![0];
    const h1 = points[index + 1]![0] - points[index]![0];
    const s0 = secants[index - 1]!;
    const s1 = secants[index]!;
    const p = (s0 * h1 + s1 * h0) / (h0 + h1 || 1);
    tangents[index] = (Math.sign(s0) + Math.sign(s1)) * Math.min(Math.abs(s0), Math.abs(s1), 0.5 * Math.abs(p)) || 0;
  }
  if (count > 2) {
    tangents[0] = (3 * secants[0]! - tangents[1]!) / 2;
    tangents[count - 1] = (3 * secants[count - 2]! - tangents[count - 2]!) / 2;
  } else if (count === 2) {
    tangents[0] = tangents[1] = secants[0]!;
  }
  return tangents;
}

const num = (value: number) => String(Math.round(value * 10) / 10);

/** An SVG path through the points: straight segments, or a monotone curve when smooth. */
export function linePath(points: readonly Point[], smooth = false): string {
  if (points.length === 0) {
    return '';
  }
  let path = `M${num(points[0]![0])},${num(points[0]![1])}`;
  if (!smooth || points.length < 3) {
    return path + points.slice(1).map(([x, y]) => `L${num(x)},${num(y)}`).join('');
  }
  const tangents = monotoneTangents(points);
  for (let index = 0; index < points.length - 1; index++) {
    const [x0, y0] = points[index]!;
    const [x1, y1] = points[index + 1]!;
    const third = (x1 - x0) / 3;
    path += `C${num(x0 + third)},${num(y0 + third * tangents[index]!)} ${num(x1 - third)},${num(y1 - third * tangents[index + 1]!)} ${num(x1)},${num(y1)}`;
  }
  return path;
}

/** The runs of consecutive non-null values: a line breaks at each null. */
export function runs<T>(values: readonly (T | null)[]): { start: number; values: T[] }[] {
  const found: { start: number; values: T[] }[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      return;
    }
    const last = found[found.length - 1];
    if (last && last.start + last.values.length === index) {
      last.values.push(value);
    } else {
      found.push({ start: index, values: [value] });
    }
  });
  return found;
}

/** The width of a 12 px label, estimated: the chart lays itself out before any text is measured. */
export function textWidth(text: string, size = 12): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    width += code >= 0x2e80 ? size : code >= 0x41 && code <= 0x5a ? size * 0.68 : size * 0.56;
  }
  return width;
}

function decimals(step: number): number {
  return Math.max(0, Math.min(10, -Math.floor(Math.log10(step) + 1e-9)));
}

export interface AxisLayout {
  ticks: Ticks;
  name?: string;
  label: (value: number) => string;
  /** The y coordinate of a value. */
  y: (value: number) => number;
}

export interface Bar {
  series: number;
  category: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Line {
  series: number;
  paths: string[];
  areas: string[];
  /** Points drawn on their own: dots asked for, or a value with nulls on both sides. */
  dots: Point[];
  lone: Point[];
}

export interface Layout {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  axes: AxisLayout[];
  /** Distance between categories. */
  band: number;
  /** The x coordinate of a category's middle. */
  x: (category: number) => number;
  /** The category under an x coordinate, or null outside the plot. */
  categoryAt: (x: number) => number | null;
  /** Every how many categories an x label is written, so labels never overlap. */
  labelEvery: number;
  /** A shown bar series: the highlighted category is shaded rather than marked with a line. */
  hasBars: boolean;
  bars: Bar[];
  lines: Line[];
  /** Each series' [base, top] per category. */
  stacked: ([number, number] | null)[][];
}

const GAP = 8;
const FONT = 12;

/** Where everything goes in a width × height chart, with the hidden series left out. */
export function layoutChart(spec: ChartSpec, hidden: ReadonlySet<string>, width: number, height: number): Layout {
  const visible = spec.series.map((one) => !hidden.has(one.name));
  const stacked = stackValues(spec.series, visible);
  const axisSpecs: readonly ChartAxis[] = spec.axes?.length ? spec.axes : [{}];
  const count = spec.categories.length;

  const axes = axisSpecs.slice(0, 2).map((axis, index) => {
    let min = Infinity;
    let max = -Infinity;
    spec.series.forEach((one, at) => {
      if (visible[at] && (one.axis ?? 0) === index) {
        for (const pair of stacked[at]!) {
          if (pair) {
            min = Math.min(min, pair[1], one.stack ? pair[0] : pair[1]);
            max = Math.max(max, pair[1], one.stack ? pair[0] : pair[1]);
          }
        }
      }
    });
    return { axis, min, max };
  });
  const options = (axis: ChartAxis) => ({ zero: axis.zero ?? true, integer: axis.integer ?? false });
  const first = niceTicks(axes[0]!.min, axes[0]!.max, options(axes[0]!.axis));
  const allTicks = axes.map((one, index) =>
    index === 0 ? first : alignedTicks(one.min, one.max, first.values.length - 1, options(one.axis)),
  );
  const labels = axes.map(({ axis }, index) => {
    const digits = decimals(allTicks[index]!.step);
    return axis.format ?? ((value: number) => formatNumber(value, digits));
  });
  const widest = (index: number) =>
    allTicks[index] ? Math.max(...allTicks[index].values.map((value) => textWidth(labels[index]!(value)))) : 0;
  const names = axes.map(({ axis }) => axis.name);
  const categoryWidest = Math.max(0, ...spec.categories.map((category) => textWidth(category)));

  const edgeHalf = spec.edges ? textWidth(spec.categories[0] ?? '') / 2 : 0;
  const left = Math.ceil(Math.max(GAP + widest(0) + GAP, textWidth(names[0] ?? '') / 2 + GAP, edgeHalf + 2));
  const lastHalf = spec.edges ? textWidth(spec.categories[count - 1] ?? '') / 2 : 0;
  const rightMargin = Math.ceil(
    axes[1] ? Math.max(GAP + widest(1) + GAP, textWidth(names[1] ?? '') / 2 + GAP) : Math.max(16, lastHalf + 2),
  );
  const top = names.some(Boolean) ? 28 : 12;
  const bottomMargin = FONT + GAP + 8;
  const right = Math.max(left + 1, width - rightMargin);
  const bottom = Math.max(top + 1, height - bottomMargin);
  const plotWidth = right - left;

  const axisLayouts: AxisLayout[] = allTicks.map((ticks, index) => ({
    ticks,
    name: names[index],
    label: labels[index]!,
    y: (value: number) => bottom - ((value - ticks.min) / (ticks.max - ticks.min || 1)) * (bottom - top),
  }));

  const band = spec.edges ? plotWidth / Math.max(1, count - 1) : plotWidth / Math.max(1, count);
  const x = spec.edges
    ? (category: number) => (count > 1 ? left + category * band : left + plotWidth / 2)
    : (category: number) => left + (category + 0.5) * band;
  const categoryAt = (at: number) => {
    if (count === 0 || at < left - (spec.edges ? band / 2 : 0) || at > right + (spec.edges ? band / 2 : 0)) {
      return null;
    }
    const raw = spec.edges ? Math.round((at - left) / band) : Math.floor((at - left) / band);
    return Math.min(count - 1, Math.max(0, raw));
  };
  const labelEvery = Math.max(1, Math.ceil((categoryWidest + GAP) / Math.max(band, 1)));

  const clampTo = (axis: AxisLayout, value: number) => axis.y(Math.min(axis.ticks.max, Math.max(axis.ticks.min, value)));

  // Bars: one slot per unstacked series and per stack, side by side within the category.
  const slots = new Map<string, number>();
  spec.series.forEach((one, index) => {
    if (visible[index] && one.kind === 'bar') {
      const key = one.stack ? `stack:${one.axis ?? 0}:${one.stack}` : `series:${index}`;
      if (!slots.has(key)) {
        slots.set(key, slots.size);
      }
    }
  });
  const slotCount = Math.max(1, slots.size);
  const barWidth = Math.max(1, Math.min(spec.barMaxWidth ?? 18, (band * 0.7) / (slotCount + 0.3 * (slotCount - 1))));
  const groupWidth = slotCount * barWidth + (slotCount - 1) * barWidth * 0.3;
  const bars: Bar[] = [];
  const lines: Line[] = [];
  spec.series.forEach((one, index) => {
    if (!visible[index]) {
      return;
    }
    const axis = axisLayouts[one.axis ?? 0] ?? axisLayouts[0]!;
    if (one.kind === 'bar') {
      const slot = slots.get(one.stack ? `stack:${one.axis ?? 0}:${one.stack}` : `series:${index}`)!;
      stacked[index]!.forEach((pair, category) => {
        if (!pair || pair[0] === pair[1]) {
          return;
        }
        const y0 = clampTo(axis, pair[0]);
        const y1 = clampTo(axis, pair[1]);
        bars.push({
          series: index,
          category,
          x: x(category) - groupWidth / 2 + slot * barWidth * 1.3,
          y: Math.min(y0, y1),
          width: barWidth,
          height: Math.abs(y1 - y0),
        });
      });
      return;
    }
    const baseline = clampTo(axis, 0);
    const line: Line = { series: index, paths: [], areas: [], dots: [], lone: [] };
    for (const run of runs(stacked[index]!)) {
      const points = run.values.map((pair, offset): Point => [x(run.start + offset), clampTo(axis, pair[1])]);
      if (points.length === 1) {
        line.lone.push(points[0]!);
        continue;
      }
      const path = linePath(points, one.smooth);
      line.paths.push(path);
      if (one.area) {
        line.areas.push(`${path}L${num(points[points.length - 1]![0])},${num(baseline)}L${num(points[0]![0])},${num(baseline)}Z`);
      }
      if (one.dots && band >= 12) {
        line.dots.push(...points);
      }
    }
    lines.push(line);
  });

  return {
    width,
    height,
    left,
    right,
    top,
    bottom,
    axes: axisLayouts,
    band,
    x,
    categoryAt,
    labelEvery,
    hasBars: slots.size > 0,
    bars,
    lines,
    stacked,
  };
}
