/** One series: bars or a line over the categories, on the left (0) or right (1) axis. */
export interface ChartSeries {
  name: string;
  kind: 'bar' | 'line';
  /** One value per category; null is a gap (a line breaks there). */
  data: readonly (number | null)[];
  axis?: 0 | 1;
  /** Bars (or lines) with the same stack key are drawn on top of one another. */
  stack?: string;
  /** A line with its area filled down to zero, at low opacity. */
  area?: boolean;
  /** A line drawn as a monotone curve: smooth, never beyond its points. */
  smooth?: boolean;
  /** A line with a hollow dot on each point (left out when the points are too close). */
  dots?: boolean;
  /** Defaults to the theme palette, in series order. */
  color?: string;
  /** Shown after the value in the tooltip. */
  unit?: string;
}

/** A value axis: the left one first, then (optionally) the right one. */
export interface ChartAxis {
  /** Written above the axis, e.g. its unit. */
  name?: string;
  /** Tick labels; defaults to grouped digits. */
  format?: (value: number) => string;
  /** Defaults to true; false fits the axis to the data (a voltage around 230 V). */
  zero?: boolean;
  /** Ticks only on whole numbers (counts). */
  integer?: boolean;
}

/** What a chart draws: categories along x, series over them, one or two value axes. */
export interface ChartSpec {
  /** The x-axis labels, already formatted. */
  categories: readonly string[];
  series: readonly ChartSeries[];
  axes?: readonly ChartAxis[];
  /** Series toggles above the plot. */
  legend?: boolean;
  /** Lines run from edge to edge instead of from the middle of the first to the last category. */
  edges?: boolean;
  /** Widest bar, in pixels; defaults to 18. */
  barMaxWidth?: number;
  /** The values in the tooltip; defaults to grouped digits with up to two decimals. */
  format?: (value: number) => string;
}
