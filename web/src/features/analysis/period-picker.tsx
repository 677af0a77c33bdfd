import { useTranslation } from 'react-i18next';
import { DayPicker, MonthPicker, RangePicker, YearPicker } from '@/components/date-pickers';
import { LabelledSelect, Option } from '@/components/select';
import styles from './analysis.module.css';
import { PERIODS, type PeriodKind, type PeriodQuery } from './api/overview';

/** A default period: the month so far. */
export function thisMonth(now: Date = new Date()): PeriodQuery {
  return { period: 'month', date: `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}` };
}

/** The date a period kind starts from when switched to, derived from the current one. */
export function switchPeriod(current: PeriodQuery, period: PeriodKind): PeriodQuery {
  const base = current.date ?? current.from ?? thisMonth().date ?? '';
  const year = base.slice(0, 4);
  const month = base.length >= 7 ? base.slice(0, 7) : `${year}-01`;
  switch (period) {
    case 'day':
      return { period, date: base.length >= 10 ? base.slice(0, 10) : `${month}-01` };
    case 'month':
      return { period, date: month };
    case 'year':
      return { period, date: year };
    default:
      return { period, from: `${month}-01`, to: `${month}-${lastDay(month)}` };
  }
}

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return String(new Date(Date.UTC(y ?? 2000, m ?? 1, 0)).getUTCDate()).padStart(2, '0');
}

/** Period kind and its date (or range), in the stations' own calendars. */
export function PeriodPicker({ value, onChange }: { value: PeriodQuery; onChange: (next: PeriodQuery) => void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.controls}>
      <LabelledSelect
        label={t('analysis.period')}
        value={value.period}
        style={{ width: 120 }}
        onChange={(p: PeriodKind) => onChange(switchPeriod(value, p))}
      >
        {PERIODS.map((p) => (
          <Option key={p} value={p}>
            {t(`analysis.period.${p}`)}
          </Option>
        ))}
      </LabelledSelect>
      {value.period === 'day' && (
        <DayPicker aria-label={t('analysis.date')} allowClear={false} value={value.date} onChange={(d: string) => onChange({ period: 'day', date: d })} />
      )}
      {value.period === 'month' && (
        <MonthPicker aria-label={t('analysis.date')} allowClear={false} value={value.date} onChange={(d: string) => onChange({ period: 'month', date: d })} />
      )}
      {value.period === 'year' && (
        <YearPicker aria-label={t('analysis.date')} allowClear={false} value={value.date} onChange={(d: string) => onChange({ period: 'year', date: d })} />
      )}
      {value.period === 'custom' && (
        <RangePicker
          aria-label={t('analysis.date')}
          allowClear={false}
          value={[value.from ?? '', value.to ?? '']}
          onChange={(d: string[]) => onChange({ period: 'custom', from: d[0], to: d[1] })}
        />
      )}
    </div>
  );
}
