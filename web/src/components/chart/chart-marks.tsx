import type { ChartTheme } from './chart-theme';

/**
 * How series differ besides colour, in colour-weak mode: bars get a fill pattern, lines a dash
 * pattern, by series index. The first series stays plain.
 */
const DASHES = ['', '8 4', '2 3', '10 3 2 3', '4 4', '1 2'];

export function lineDash(index: number, theme: ChartTheme): string | undefined {
  return theme.colorWeak ? DASHES[index % DASHES.length] || undefined : undefined;
}

/** The id of series index's bar pattern, or null when bars are filled plainly. */
export function patternId(prefix: string, index: number, theme: ChartTheme): string | null {
  return theme.colorWeak && index % PATTERNS.length !== 0 ? `${prefix}-pattern-${index}` : null;
}

/** The fill of a bar of series index. */
export function barFill(prefix: string, index: number, color: string, theme: ChartTheme): string {
  const id = patternId(prefix, index, theme);
  return id ? `url(#${id})` : color;
}

/** Pattern marks over the series colour, drawn in the background colour. */
const PATTERNS: ((stroke: string) => JSX.Element | null)[] = [
  () => null,
  (stroke) => <path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke={stroke} strokeWidth={1.5} />,
  (stroke) => <circle cx={4} cy={4} r={1.5} fill={stroke} />,
  (stroke) => <path d="M0,4 h8 M4,0 v8" stroke={stroke} strokeWidth={1.5} />,
  (stroke) => <path d="M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4" stroke={stroke} strokeWidth={1.5} />,
  (stroke) => <path d="M0,2 h8 M0,6 h8" stroke={stroke} strokeWidth={1.5} />,
];

function Pattern({ id, index, color, theme }: { id: string; index: number; color: string; theme: ChartTheme }) {
  const mark = PATTERNS[index % PATTERNS.length]!;
  return (
    <pattern id={id} width={8} height={8} patternUnits="userSpaceOnUse">
      <rect width={8} height={8} fill={color} />
      {mark(theme.background)}
    </pattern>
  );
}

/** The <pattern> definitions of a chart's bar series. */
export function BarPatterns({ prefix, colors, theme }: { prefix: string; colors: string[]; theme: ChartTheme }) {
  if (!theme.colorWeak) {
    return null;
  }
  return (
    <defs>
      {colors.map((color, index) => {
        const id = patternId(prefix, index, theme);
        return id && <Pattern key={id} id={id} index={index} color={color} theme={theme} />;
      })}
    </defs>
  );
}

/** A legend swatch showing the series as the plot draws it: a patterned box or a dashed line. */
export function Swatch({
  prefix,
  index,
  color,
  kind,
  theme,
  shown,
}: {
  prefix: string;
  index: number;
  color: string;
  kind: 'bar' | 'line';
  theme: ChartTheme;
  shown: boolean;
}) {
  const paint = shown ? color : theme.splitLine;
  return (
    <svg width={16} height={10} aria-hidden="true" focusable="false">
      {kind === 'line' ? (
        <line x1={0} x2={16} y1={5} y2={5} stroke={paint} strokeWidth={2} strokeDasharray={lineDash(index, theme)} />
      ) : (
        <>
          {patternId(`${prefix}-swatch`, index, theme) && (
            <defs>
              <Pattern id={patternId(`${prefix}-swatch`, index, theme)!} index={index} color={paint} theme={theme} />
            </defs>
          )}
          <rect width={16} height={10} rx={2} fill={barFill(`${prefix}-swatch`, index, paint, theme)} />
        </>
      )}
    </svg>
  );
}
