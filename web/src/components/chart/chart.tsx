import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { DataState, type DataStateProps } from '../data-state';
import { type ChartTheme, useChartTheme } from './chart-theme';
import styles from './chart.module.css';

type Runtime = typeof import('./echarts-runtime');

let runtime: Runtime | null = null;
let loading: Promise<Runtime> | null = null;

/** ECharts arrives with the first chart on screen, never with the entry or login chunks. */
function loadRuntime(): Promise<Runtime> {
  loading ??= import('./echarts-runtime').then((module) => {
    runtime = module;
    return module;
  });
  return loading;
}

export interface ChartProps extends Omit<DataStateProps, 'children'> {
  /** Builds the option from the theme; memoise it (useCallback) so the chart redraws only on change. */
  option: (theme: ChartTheme) => EChartsCoreOption;
  /** Names the chart for assistive technology. */
  label: string;
  /** Defaults to 100%: the chart fills its container and follows its size. */
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
}

/**
 * A chart that follows the console theme (light, dark, theme colour), resizes with its container
 * (ResizeObserver) and shows the loading, error and empty states of its data.
 */
export function Chart({ option, label, width = '100%', height = '100%', ...state }: ChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const theme = useChartTheme();
  const [ready, setReady] = useState(runtime !== null);
  const showing = !state.loading && !state.error && !state.empty;

  useEffect(() => {
    if (ready) {
      return;
    }
    let current = true;
    void loadRuntime().then(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [ready]);

  useEffect(() => {
    const element = container.current;
    if (!ready || !showing || !element || !runtime) {
      return;
    }
    const instance = runtime.init(element, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [ready, showing]);

  useEffect(() => {
    if (ready && showing) {
      chart.current?.setOption(option(theme), { notMerge: true });
    }
  }, [ready, showing, option, theme]);

  return (
    <div className={styles.wrap} style={{ width, height }}>
      <DataState {...state} loading={state.loading || (showing && !ready)}>
        <div ref={container} className={styles.canvas} role="img" aria-label={label} />
      </DataState>
    </div>
  );
}
