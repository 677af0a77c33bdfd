import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { IconMinus, IconPlus } from '@arco-design/web-react/icon';
import { type ReactNode, type RefObject, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './list.module.css';

/**
 * A table column that may step aside: when the table is wider than its place, the optional
 * columns are dropped, lowest `optional` first, and shown in the row's details instead, so
 * that the page never needs a sideways scroll.
 */
export type FitColumn<T> = ColumnProps<T> & {
  optional?: number;
  /**
   * Where the column goes when a phone draws the rows as cards (list-cards.tsx): on the card
   * (primary), behind its details toggle (secondary), or at its foot as the row's actions. Unset:
   * the first three columns that never step aside are primary, a column fixed on the right
   * holds the actions, the others are secondary.
   */
  phone?: 'primary' | 'secondary' | 'actions';
};

/** The width a column is counted at: its own, or this. */
const DEFAULT_WIDTH = 120;
/** The expand toggle's column. */
const EXPAND_WIDTH = 48;

const widthOf = (column: ColumnProps<unknown>) => (typeof column.width === 'number' ? column.width : DEFAULT_WIDTH);

/** The columns that fit `available` pixels, and those dropped to make them fit. */
export function fitColumns<T>(columns: FitColumn<T>[], available: number, expands: boolean) {
  const sum = (list: FitColumn<T>[], extra: boolean) =>
    list.reduce((total, column) => total + widthOf(column as ColumnProps<unknown>), extra ? EXPAND_WIDTH : 0);
  const order = columns
    .filter((column) => column.optional !== undefined)
    .sort((a, b) => (a.optional ?? 0) - (b.optional ?? 0));
  let shown = columns;
  const dropped: FitColumn<T>[] = [];
  for (const column of order) {
    if (available <= 0 || sum(shown, expands || dropped.length > 0) <= available) {
      break;
    }
    shown = shown.filter((item) => item !== column);
    dropped.push(column);
  }
  const width = sum(shown, expands || dropped.length > 0);
  // Sticky columns need a scroll width; a table that fits has none.
  const fits = available > 0 && width <= available;
  return {
    shown: fits ? shown.map(({ fixed: _fixed, ...column }) => column as FitColumn<T>) : shown,
    dropped: columns.filter((column) => dropped.includes(column)),
    width,
    fits,
  };
}

function useWidth(): [RefObject<HTMLDivElement>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) {
      return undefined;
    }
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export function cellOf<T>(column: FitColumn<T>, row: T, index: number): ReactNode {
  const value = column.dataIndex ? (row as Record<string, unknown>)[column.dataIndex] : undefined;
  if (column.render) {
    return column.render(value, row, index);
  }
  return value === undefined || value === null || value === '' ? '–' : String(value);
}

/**
 * Fits a table's columns to its box (measured on the returned ref's element): the props for
 * Arco's Table (columns, scroll, expandedRowRender) with the dropped columns in the details.
 */
export function useFitColumns<T>(columns: FitColumn<T>[], expandedRowRender?: (row: T, index: number) => ReactNode) {
  const [ref, available] = useWidth();
  const fit = useMemo(() => fitColumns(columns, available, Boolean(expandedRowRender)), [columns, available, expandedRowRender]);
  const details = useMemo(() => {
    if (fit.dropped.length === 0) {
      return expandedRowRender;
    }
    return (row: T, index: number) => (
      <>
        <dl className={styles.details}>
          {fit.dropped.map((column, key) => (
            <div key={String(column.dataIndex ?? key)}>
              <dt>{column.title as ReactNode}</dt>
              <dd>{cellOf(column, row, index)}</dd>
            </div>
          ))}
        </dl>
        {expandedRowRender?.(row, index)}
      </>
    );
  }, [fit.dropped, expandedRowRender]);
  const { t } = useTranslation();
  // Arco's own toggle is an icon without a name: this one says what it does
  const expandProps = useMemo(
    () => ({
      icon: ({ expanded }: { expanded?: boolean }) => (
        <button
          type="button"
          aria-label={t(expanded ? 'list.hideDetails' : 'list.showDetails')}
          aria-expanded={Boolean(expanded)}
        >
          {expanded ? <IconMinus /> : <IconPlus />}
        </button>
      ),
    }),
    [t],
  );
  return {
    ref,
    columns: fit.shown as ColumnProps<T>[],
    scroll: fit.fits || available === 0 ? undefined : { x: fit.width },
    expandedRowRender: details,
    expandProps,
  };
}
