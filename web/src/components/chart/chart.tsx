import {
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import { notifyError } from '@/lib/notify';
import { DataState, type DataStateProps } from '../data-state';
import { chartPng, saveBlob } from './chart-export';
import { layoutChart } from './chart-geometry';
import { Swatch } from './chart-marks';
import { Plot } from './chart-plot';
import type { ChartSpec } from './chart-spec';
import { type ChartTheme, useChartTheme } from './chart-theme';
import { dragRange, sliceSpec, type ZoomRange, zoomAround } from './chart-zoom';
import styles from './chart.module.css';

export type { ChartAxis, ChartSeries, ChartSpec } from './chart-spec';

export interface ChartProps extends Omit<DataStateProps, 'children'> {
  /** Builds what to draw from the theme; memoise it (useCallback) so the chart redraws only on change. */
  spec: (theme: ChartTheme) => ChartSpec;
  /** Names the chart for assistive technology. */
  label: string;
  /** Defaults to 100%: the chart fills its container and follows its size. */
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  /** Drag across the plot (or press + and −) to zoom into a range of categories; a button resets it. */
  zoom?: boolean;
  /** Offers "export as PNG"; the file's name, without the extension. */
  exportName?: string;
}

/** Until the container is measured (and in tests, where nothing has a size). */
const FALLBACK = { width: 600, height: 300 };

/**
 * A bar and line chart over categories, in SVG. It follows the console theme (light, dark, theme
 * colour), resizes with its container (ResizeObserver) and shows the loading, error and empty
 * states of its data.
 */
export function Chart({ spec, label, width = '100%', height = '100%', zoom, exportName, ...state }: ChartProps) {
  const showing = !state.loading && !state.error && !state.empty;
  return (
    <div className={styles.wrap} style={{ width, height }}>
      <DataState {...state}>
        {showing && <ChartBody spec={spec} label={label} zoom={zoom} exportName={exportName} />}
      </DataState>
    </div>
  );
}

type BodyProps = Pick<ChartProps, 'spec' | 'label' | 'zoom' | 'exportName'>;

function ChartBody({ spec: build, label, zoom = false, exportName }: BodyProps) {
  const { t } = useTranslation();
  const theme = useChartTheme();
  const full = useMemo(() => build(theme), [build, theme]);
  const [range, setRange] = useState<ZoomRange | null>(null);
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  // New data (not a new theme) shows everything again.
  const categoriesKey = full.categories.join('\u0000');
  useLayoutEffect(() => setRange(null), [categoriesKey]);
  const spec = useMemo(() => sliceSpec(full, range), [full, range]);
  const offset = range?.[0] ?? 0;
  const plot = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState(FALLBACK);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [active, setActive] = useState<{ category: number; y: number | null } | null>(null);
  const [asTable, setAsTable] = useState(false);
  const hintId = useId();
  const tooltipId = useId();
  const idPrefix = `chart${useId().replace(/\W/g, '')}`;

  useLayoutEffect(() => {
    const element = plot.current;
    if (!element) {
      return;
    }
    const measure = () => {
      const box = element.getBoundingClientRect();
      const width = Math.round(box.width);
      const height = Math.round(box.height);
      setSize((current) =>
        width > 0 && height > 0 && (current.width !== width || current.height !== height) ? { width, height } : current,
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const layout = useMemo(() => layoutChart(spec, hidden, size.width, size.height), [spec, hidden, size]);
  const colors = spec.series.map((series, index) => series.color ?? theme.palette[index % theme.palette.length] ?? '');
  const count = spec.categories.length;
  const category = active && active.category < count ? active.category : null;

  const toggle = (name: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (!next.delete(name)) {
        next.add(name);
      }
      return next;
    });

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const at = layout.categoryAt(event.clientX - box.left);
    setActive(at === null ? null : { category: at, y: event.clientY - box.top });
    if (drag) {
      setDrag({ from: drag.from, to: Math.min(layout.right, Math.max(layout.left, event.clientX - box.left)) });
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    onPointerMove(event);
    if (zoom && event.button === 0 && event.pointerType !== 'touch') {
      const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
      event.currentTarget.setPointerCapture?.(event.pointerId);
      setDrag({ from: x, to: x });
    }
  };

  const onPointerUp = () => {
    if (!drag) {
      return;
    }
    const next = dragRange(drag.from, drag.to, layout.categoryAt, offset, full.categories.length);
    setDrag(null);
    if (next) {
      setRange(next);
      setActive(null);
    }
  };

  const zoomBy = (direction: 'in' | 'out') => {
    const next = zoomAround(range, full.categories.length, category === null ? null : offset + category, direction);
    const whole = category === null ? null : offset + category;
    setRange(next);
    const start = next?.[0] ?? 0;
    const end = next?.[1] ?? full.categories.length - 1;
    setActive(whole === null || whole < start || whole > end ? null : { category: whole - start, y: null });
  };

  const [exporting, setExporting] = useState(false);
  const exportPng = async () => {
    const svg = plot.current?.querySelector('svg');
    if (!svg || !exportName) {
      return;
    }
    setExporting(true);
    try {
      const legend = spec.series
        .map((series, index) => ({ name: series.name, kind: series.kind, color: colors[index] ?? '' }))
        .filter((item) => !hidden.has(item.name));
      const blob = await chartPng(svg, { title: label, legend, theme, fontFamily: getComputedStyle(document.body).fontFamily });
      saveBlob(blob, `${exportName}.png`);
    } catch {
      notifyError(t('chart.exportFailed'));
    } finally {
      setExporting(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = count - 1;
    const moves: Record<string, () => number | null> = {
      ArrowRight: () => (category === null ? 0 : Math.min(last, category + 1)),
      ArrowLeft: () => (category === null ? last : Math.max(0, category - 1)),
      Home: () => 0,
      End: () => last,
      Escape: () => null,
    };
    if (zoom && (event.key === '+' || event.key === '=' || event.key === '-')) {
      event.preventDefault();
      zoomBy(event.key === '-' ? 'out' : 'in');
      return;
    }
    const move = moves[event.key];
    if (!move || count === 0 || (event.key === 'Escape' && category === null)) {
      return;
    }
    event.preventDefault();
    const next = move();
    setActive(next === null ? null : { category: next, y: null });
  };

  const format = spec.format ?? ((value: number) => formatNumber(value, 2));
  const rows = category === null ? [] : spec.series.map((series, index) => ({ series, index })).filter(({ series }) => !hidden.has(series.name));
  const tooltipX = category === null ? 0 : layout.x(category);
  const tooltipY = active?.y ?? layout.top;
  const tooltipStyle: CSSProperties = {
    left: tooltipX,
    top: tooltipY,
    transform: `translate(${tooltipX > size.width / 2 ? 'calc(-100% - 16px)' : '16px'}, ${tooltipY > size.height / 2 ? '-100%' : '0'})`,
    background: theme.tooltipBackground,
    borderColor: theme.tooltipBorder,
    color: theme.text,
  };

  const unitOf = (index: number) => spec.series[index]?.unit;
  const cell = (value: number | null | undefined, index: number) =>
    value === null || value === undefined ? '–' : `${format(value)}${unitOf(index) ? ` ${unitOf(index)}` : ''}`;

  // With a legend, the buttons sit at the end of its row (kept there in table view); without one,
  // over the plot's top corner.
  const inline = Boolean(spec.legend);
  const toolbar = (
    <div className={inline ? styles.toolbarInline : styles.toolbar}>
        {range && !asTable && (
          <button type="button" className={styles.viewToggle} onClick={() => setRange(null)}>
            {t('chart.resetZoom')}
          </button>
        )}
        {exportName && !asTable && (
          <button type="button" className={styles.viewToggle} disabled={exporting} onClick={() => void exportPng()}>
            {t('chart.exportPng')}
          </button>
        )}
        <button type="button" className={styles.viewToggle} aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
          {t('chart.table')}
        </button>
      </div>
  );
  const legend = (
    <div className={styles.legend} role="group" aria-label={t('chart.legend')}>
          {spec.series.map((series, index) => {
            const shown = !hidden.has(series.name);
            return (
              <button
                key={series.name}
                type="button"
                className={styles.legendItem}
                aria-pressed={shown}
                onClick={() => toggle(series.name)}
              >
                <Swatch
                  prefix={idPrefix}
                  index={index}
                  color={colors[index] ?? ''}
                  kind={series.kind}
                  theme={theme}
                  shown={shown}
                />
                {series.name}
              </button>
            );
          })}
        </div>
  );

  return (
    <div className={styles.chart} data-zoom={range ? `${range[0]}-${range[1]}` : undefined}>
      {!inline && toolbar}
      {inline && (
        <div className={styles.head}>
          {!asTable && legend}
          {toolbar}
        </div>
      )}
      {asTable && (
        <div className={styles.tableWrap} role="region" aria-label={label} tabIndex={0}>
          <table className={styles.table}>
            <caption className={styles.hidden}>{label}</caption>
            <thead>
              <tr>
                <th scope="col">{t('chart.category')}</th>
                {full.series.map((series) => (
                  <th key={series.name} scope="col">
                    {series.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {full.categories.map((name, row) => (
                <tr key={`${row}-${name}`}>
                  <th scope="row">{name}</th>
                  {full.series.map((series, index) => (
                    <td key={series.name}>{cell(series.data[row], index)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div ref={plot} className={styles.stage} hidden={asTable}>
        <div
          className={styles.plot}
          role="img"
          data-zoomable={zoom || undefined}
          aria-label={label}
          aria-describedby={category === null ? hintId : tooltipId}
          tabIndex={0}
          onKeyDown={onKeyDown}
          onPointerMove={onPointerMove}
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
          onPointerLeave={() => setActive(null)}
          onBlur={() => setActive(null)}
        >
          <Plot
            spec={spec}
            layout={layout}
            theme={theme}
            colors={colors}
            label={label}
            active={category}
            idPrefix={idPrefix}
          />
        </div>
        {drag && Math.abs(drag.to - drag.from) > 0 && (
          <div
            className={styles.selection}
            data-testid="zoom-selection"
            style={{ left: Math.min(drag.from, drag.to), width: Math.abs(drag.to - drag.from), top: layout.top, height: layout.bottom - layout.top }}
          />
        )}
        <span id={hintId} className={styles.hidden}>
          {t(zoom ? 'chart.hintZoom' : 'chart.hint')}
        </span>
        {category !== null && (
          <div id={tooltipId} className={styles.tooltip} style={tooltipStyle} role="tooltip">
            <div className={styles.tooltipTitle}>{spec.categories[category]}</div>
            {rows.map(({ series, index }) => {
              const value = series.data[category];
              return (
                <div key={series.name} className={styles.tooltipRow}>
                  <span className={styles.dot} style={{ background: colors[index] }} aria-hidden />
                  <span className={styles.tooltipName}>{series.name}</span>
                  <span className={styles.tooltipValue}>{cell(value, index)}</span>
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
