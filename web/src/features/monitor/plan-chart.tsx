import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import type { ChartTheme } from '@/components/chart/chart-theme';
import { Panel } from '@/components/panel';
import { LabelledSelect } from '@/components/select';
import { formatNumber, formatQuantity } from '@/lib/format';
import { usePlan } from './api/plan';
import styles from './monitor.module.css';
import { monitorTexts } from './texts';

/** Planned against actual generation per month of a year, with the completion ratio. */
export function PlanChart() {
  const { t } = useTranslation();
  monitorTexts.useReady();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const plan = usePlan(year);
  const months = useMemo(() => plan.data?.months ?? [], [plan.data]);
  const unit = plan.data?.unit ?? 'kWh';

  const spec = useCallback(
    (theme: ChartTheme): ChartSpec => {
      // months that have not begun have a plan, but no actual and no completion yet
      const today = new Date();
      const begun = (month: number) =>
        year < today.getFullYear() || (year === today.getFullYear() && month <= today.getMonth() + 1);
      return {
      categories: months.map((month) => t('common.monthShort', { month: month.month })),
      legend: true,
      barMaxWidth: 14,
      format: (value) => formatNumber(value, 1),
      axes: [{ name: unit }, { name: '%' }],
      series: [
        { name: t('monitor.plan.plan'), kind: 'bar', unit, color: theme.color('primary', 3), data: months.map((month) => month.planKwh) },
        { name: t('monitor.plan.actual'), kind: 'bar', unit, color: theme.color('primary'), data: months.map((month) => (begun(month.month) ? month.actualKwh : null)) },
        {
          name: t('monitor.plan.completion'),
          kind: 'line',
          axis: 1,
          smooth: true,
          dots: true,
          unit: '%',
          color: theme.color('green'),
          data: months.map((month) => (begun(month.month) ? month.completion : null)),
        },
      ],
      };
    },
    [months, unit, year, t],
  );

  const years = [thisYear, thisYear - 1, thisYear - 2];
  return (
    <Panel
      title={t('monitor.plan.title')}
      extra={
        <>
          {plan.data?.completionToDate !== undefined && (
            <span
              className={styles.caption}
              tabIndex={0}
              title={t('monitor.plan.toDateRule', { whole: formatQuantity(plan.data.completion ?? 0, '%', { digits: 1 }) })}
            >
              {t('monitor.plan.toDate')} {formatQuantity(plan.data.completionToDate, '%', { digits: 1 })}
            </span>
          )}
          <LabelledSelect
            size="small"
            style={{ width: 100 }}
            value={year}
            onChange={(value: number) => setYear(value)}
            label={t('monitor.plan.year')}
            options={years.map((value) => ({ label: String(value), value }))}
          />
        </>
      }
    >
      <div className={styles.chart}>
        <Chart
          spec={spec}
          label={t('monitor.plan.title')}
          loading={plan.isPending}
          error={plan.isError && !plan.data}
          empty={months.length === 0}
          onRetry={() => void plan.refetch()}
        />
      </div>
    </Panel>
  );
}
