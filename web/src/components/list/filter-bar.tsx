import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconDown, IconFilter, IconUp } from '@arco-design/web-react/icon';
import { lazy, type ReactNode, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { usePhone } from '@/lib/use-phone';
import styles from './list.module.css';

/** "All" in a select whose value is otherwise a number or a name. */
export const ALL = 'all';

/**
 * A list's filter bar: a search landmark with its fields and a reset button. On a phone the
 * fields fold behind a Filters button, so the list starts on the first screen.
 */
export function FilterBar({ label, onReset, children }: { label: string; onReset?: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const phone = usePhone();
  const [open, setOpen] = useState(false);
  // folded on a phone: the fields are drawn (and their code loaded) once first unfolded
  const [unfolded, setUnfolded] = useState(false);
  const id = useId();
  const fields = (
    <>
      {children}
      {onReset && (
        <div className={styles.filterActions}>
          <Button onClick={onReset}>{t('list.reset')}</Button>
        </div>
      )}
    </>
  );
  if (!phone) {
    return (
      <div className={styles.filters} role="search" aria-label={label}>
        {fields}
      </div>
    );
  }
  return (
    <div className={styles.phoneFilters} role="search" aria-label={label}>
      <Button
        className={styles.filterToggle}
        icon={<IconFilter />}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          setOpen(!open);
          setUnfolded(true);
        }}
      >
        {t('list.filters')}
        {open ? <IconUp aria-hidden /> : <IconDown aria-hidden />}
      </Button>
      <div id={id} className={styles.filters} hidden={!open}>
        {unfolded && fields}
      </div>
    </div>
  );
}

/** One labelled field of a filter bar (the control carries its own accessible name). */
export function FilterField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <span className={styles.fieldLabel} aria-hidden>
        {label}
      </span>
      {children}
    </div>
  );
}

export interface SelectFilterProps<V extends string | number> {
  label: string;
  /** undefined: "all". */
  value: V | undefined;
  options: readonly { value: V; label: string }[];
  onChange: (value: V | undefined) => void;
  /** The text of "all" (default: All). */
  allText?: string;
  wide?: boolean;
  searchable?: boolean;
}

/** A select filter with "all" first. */
export function SelectFilter<V extends string | number>({
  label,
  value,
  options,
  onChange,
  allText,
  wide,
  searchable,
}: SelectFilterProps<V>) {
  const { t } = useTranslation();
  return (
    <FilterField label={label}>
      <LabelledSelect
        label={label}
        className={wide ? styles.wide : styles.select}
        showSearch={searchable}
        filterOption={
          searchable
            ? (input, option) =>
                String((option as { props?: { children?: unknown } }).props?.children ?? '')
                  .toLowerCase()
                  .includes(input.toLowerCase())
            : undefined
        }
        value={value ?? ALL}
        onChange={(next: V | typeof ALL) => onChange(next === ALL ? undefined : (next as V))}
      >
        <Option value={ALL}>{allText ?? t('list.all')}</Option>
        {options.map((option) => (
          <Option key={option.value} value={option.value}>
            {option.label}
          </Option>
        ))}
      </LabelledSelect>
    </FilterField>
  );
}

// The date range picker (Arco's, with its calendar) is loaded when a filter bar is first drawn
// with it, not with the list's first screen: a phone shows the filters folded (docs/perf-phone.md).
const RangePicker = lazy(() => import('@/components/date-pickers').then((m) => ({ default: m.RangePicker })));

/** A from-to day range filter (yyyy-MM-dd days). */
export function RangeFilter({
  label,
  from,
  to,
  placeholders,
  onChange,
}: {
  label: string;
  from?: string;
  to?: string;
  placeholders: [string, string];
  onChange: (from: string | undefined, to: string | undefined) => void;
}) {
  return (
    <FilterField label={label}>
      <div role="group" aria-label={label}>
        <Suspense fallback={<span className={`${styles.range} ${styles.rangeLoading}`} aria-busy="true" />}>
          <RangePicker
            className={styles.range}
            allowClear
            placeholder={placeholders}
            value={from && to ? [from, to] : undefined}
            onChange={(dates?: string[]) => onChange(dates?.[0] || undefined, dates?.[1] || undefined)}
          />
        </Suspense>
      </div>
    </FilterField>
  );
}
