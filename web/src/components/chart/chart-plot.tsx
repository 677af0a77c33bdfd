import { type Layout, textWidth } from './chart-geometry';
import { BarPatterns, barFill, lineDash } from './chart-marks';
import type { ChartSpec } from './chart-spec';
import type { ChartTheme } from './chart-theme';

interface PlotProps {
  spec: ChartSpec;
  layout: Layout;
  theme: ChartTheme;
  colors: string[];
  label: string;
  /** The highlighted category, or null. */
  active: number | null;
  /** Prefix of the ids of the chart's patterns (unique in the page). */
  idPrefix: string;
}

/** The chart drawn in SVG: split lines, axes, bars, lines and areas, and the highlighted category. */
export function Plot({ spec, layout, theme, colors, label, active, idPrefix }: PlotProps) {
  const { width, height, left, right, top, bottom, axes, band, x, labelEvery } = layout;
  const [first, second] = axes;
  const zeroY = first!.y(Math.min(first!.ticks.max, Math.max(first!.ticks.min, 0)));
  const text = { fill: theme.textSecondary, fontSize: 12 };
  const count = spec.categories.length;

  return (
    <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} aria-hidden="true" focusable="false">
      <title>{label}</title>
      <BarPatterns prefix={idPrefix} colors={colors} theme={theme} />
      <g stroke={theme.splitLine} strokeDasharray="4 4">
        {first!.ticks.values.map((value) => (
          <line key={value} x1={left} x2={right} y1={first!.y(value)} y2={first!.y(value)} />
        ))}
      </g>
      {active !== null &&
        (layout.hasBars ? (
          <rect x={x(active) - band / 2} y={top} width={band} height={bottom - top} fill={theme.splitLine} opacity={0.5} />
        ) : (
          <line x1={x(active)} x2={x(active)} y1={top} y2={bottom} stroke={theme.axisLine} />
        ))}
      <g>
        {layout.bars.map((bar) => (
          <rect
            key={`${bar.series}-${bar.category}`}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            fill={barFill(idPrefix, bar.series, colors[bar.series] ?? '', theme)}
          />
        ))}
      </g>
      {layout.lines.map((line) => (
        <g key={line.series} fill="none" stroke={colors[line.series]}>
          {line.areas.map((area) => (
            <path key={area} d={area} fill={colors[line.series]} fillOpacity={0.15} stroke="none" />
          ))}
          {line.paths.map((path) => (
            <path
              key={path}
              d={path}
              strokeWidth={2}
              strokeLinejoin="round"
              strokeLinecap="round"
              strokeDasharray={lineDash(line.series, theme)}
            />
          ))}
          {line.dots.map(([cx, cy], index) => (
            <circle key={index} cx={cx} cy={cy} r={3} fill={theme.background} strokeWidth={1.5} />
          ))}
          {line.lone.map(([cx, cy], index) => (
            <circle key={index} cx={cx} cy={cy} r={2.5} fill={colors[line.series]} stroke="none" />
          ))}
        </g>
      ))}
      <line x1={left} x2={right} y1={zeroY} y2={zeroY} stroke={theme.axisLine} />
      <g {...text} textAnchor="middle">
        {spec.categories.map((category, index) => {
          if (index % labelEvery !== 0) {
            return null;
          }
          const half = textWidth(category) / 2;
          const at = Math.min(width - half, Math.max(half, x(index)));
          return (
            <g key={index}>
              <line x1={x(index)} x2={x(index)} y1={bottom} y2={bottom + 4} stroke={theme.axisLine} />
              <text x={at} y={bottom + 18}>
                {category}
              </text>
            </g>
          );
        })}
      </g>
      {[first, second].map(
        (axis, index) =>
          axis && (
            <g key={index} {...text} textAnchor={index === 0 ? 'end' : 'start'}>
              {axis.name && (
                <text x={index === 0 ? left : right} y={top - 12} textAnchor="middle">
                  {axis.name}
                </text>
              )}
              {axis.ticks.values.map((value) => (
                <text key={value} x={index === 0 ? left - 8 : right + 8} y={axis.y(value)} dy="0.35em">
                  {axis.label(value)}
                </text>
              ))}
            </g>
          ),
      )}
      {active !== null &&
        active < count &&
        layout.lines.map((line) => {
          const pair = layout.stacked[line.series]![active];
          const axis = axes[spec.series[line.series]!.axis ?? 0] ?? first!;
          return (
            pair && (
              <circle
                key={line.series}
                cx={x(active)}
                cy={axis.y(pair[1])}
                r={4}
                fill={colors[line.series]}
                stroke={theme.background}
                strokeWidth={2}
              />
            )
          );
        })}
    </svg>
  );
}
