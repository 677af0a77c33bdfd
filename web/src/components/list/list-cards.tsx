import type { SorterInfo } from '@arco-design/web-react/es/Table/interface';
import { IconDown, IconUp } from '@arco-design/web-react/icon';
import { isValidElement, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { cellOf, type FitColumn } from './fit-columns';
import styles from './list-cards.module.css';

/** How many columns a card shows when no column says it is primary. */
const DEFAULT_PRIMARY = 3;

/** The columns of a card: on it, behind its details toggle, and its actions. */
export function cardColumns<T>(columns: FitColumn<T>[]) {
  const isActions = (column: FitColumn<T>) =>
    column.phone === 'actions' || (column.phone === undefined && column.fixed === 'right');
  const marked = columns.some((column) => column.phone === 'primary');
  const rest = columns.filter((column) => !isActions(column));
  const primary = marked
    ? rest.filter((column) => column.phone === 'primary')
    : rest.filter((column) => column.phone === undefined && column.optional === undefined).slice(0, DEFAULT_PRIMARY);
  return {
    primary,
    secondary: rest.filter((column) => !primary.includes(column)),
    actions: columns.filter(isActions),
  };
}

/** A column of sentences or names (ellipsed in the table, or wide) takes a card's whole width. */
function isLong<T>(column: FitColumn<T>): boolean {
  return Boolean(column.ellipsis) || (typeof column.width === 'number' && column.width >= 200);
}

function keyOf<T>(column: FitColumn<T>, index: number): string {
  return String(column.key ?? column.dataIndex ?? index);
}

function Fields<T>({ columns, row, index }: { columns: FitColumn<T>[]; row: T; index: number }) {
  return (
    <dl className={styles.fields}>
      {columns.map((column, key) => (
        <div key={keyOf(column, key)} className={isLong(column) ? styles.long : styles.field}>
          <dt>{column.title as ReactNode}</dt>
          <dd>{cellOf(column, row, index)}</dd>
        </div>
      ))}
    </dl>
  );
}

interface CardProps<T> {
  row: T;
  index: number;
  columns: ReturnType<typeof cardColumns<T>>;
  expandedRowRender?: (row: T) => ReactNode;
}

function Card<T>({ row, index, columns, expandedRowRender }: CardProps<T>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  const hasDetails = columns.secondary.length > 0 || Boolean(expandedRowRender);
  return (
    <li className={styles.card}>
      <Fields columns={columns.primary} row={row} index={index} />
      {open && (
        <div id={id} className={styles.details}>
          <Fields columns={columns.secondary} row={row} index={index} />
          {expandedRowRender?.(row)}
        </div>
      )}
      {(hasDetails || columns.actions.length > 0) && (
        <div className={styles.foot}>
          {hasDetails && (
            <button
              type="button"
              className={styles.toggle}
              aria-expanded={open}
              aria-controls={open ? id : undefined}
              onClick={() => setOpen(!open)}
            >
              {open ? <IconUp aria-hidden /> : <IconDown aria-hidden />}
              {t(open ? 'list.hideDetails' : 'list.showDetails')}
            </button>
          )}
          {columns.actions.map((column, key) => (
            <span key={keyOf(column, key)} className={styles.actions}>
              {cellOf(column, row, index)}
            </span>
          ))}
        </div>
      )}
    </li>
  );
}

/** A column title as plain text (a title may be an element around its text). */
function titleText(title: unknown, fallback: string): string {
  if (typeof title === 'string') {
    return title;
  }
  if (isValidElement<{ children?: unknown }>(title) && typeof title.props.children === 'string') {
    return title.props.children;
  }
  return fallback;
}

/**
 * A card list's order, for a phone where there are no column headers to click: one select of
 * the sortable columns, each largest or smallest first, and the list's usual order.
 */
export function CardSort<T>({ columns, onSort }: { columns: FitColumn<T>[]; onSort: (sorter: SorterInfo) => void }) {
  const { t } = useTranslation();
  const sortable = columns.filter((column) => column.sorter && column.key !== undefined);
  if (sortable.length === 0) {
    return null;
  }
  const active = sortable.find((column) => column.sortOrder);
  return (
    <div className={styles.sort}>
      <LabelledSelect
        label={t('list.sortBy')}
        prefix={t('list.sortBy')}
        value={active ? `${String(active.key)}:${active.sortOrder}` : ''}
        onChange={(value: string) => {
          const [field = '', direction] = value.split(':');
          onSort({ field, direction: direction === 'ascend' || direction === 'descend' ? direction : undefined } as SorterInfo);
        }}
      >
        <Option value="">{t('list.sortDefault')}</Option>
        {sortable.flatMap((column) => {
          const name = titleText(column.title, String(column.key));
          return [
            <Option key={`${String(column.key)}:descend`} value={`${String(column.key)}:descend`}>
              {t('list.sortDescending', { name })}
            </Option>,
            <Option key={`${String(column.key)}:ascend`} value={`${String(column.key)}:ascend`}>
              {t('list.sortAscending', { name })}
            </Option>,
          ];
        })}
      </LabelledSelect>
    </div>
  );
}

interface ListCardsProps<T> {
  /** The list's accessible name. */
  label: string;
  rows: T[];
  columns: FitColumn<T>[];
  /** A row's key: the name of its field, or a function of the row. */
  rowKey: string | ((row: T) => string);
  expandedRowRender?: (row: T) => ReactNode;
  /** Called when the order is chosen (with a column's key as the field), as a table's sorter is. */
  onSort?: (sorter: SorterInfo) => void;
}

/**
 * A list's rows as cards, for a phone: the columns an operator needs first on each card, the
 * others behind a details toggle, the row's actions at its foot. Nothing scrolls sideways.
 */
export function ListCards<T>({ label, rows, columns, rowKey, expandedRowRender, onSort }: ListCardsProps<T>) {
  const parts = cardColumns(columns);
  return (
    <>
      {onSort && <CardSort columns={columns} onSort={onSort} />}
      <ul className={styles.cards} aria-label={label}>
        {rows.map((row, index) => (
          <Card
            key={typeof rowKey === 'function' ? rowKey(row) : String((row as Record<string, unknown>)[rowKey] ?? index)}
            row={row}
            index={index}
            columns={parts}
            expandedRowRender={expandedRowRender}
          />
        ))}
      </ul>
    </>
  );
}
