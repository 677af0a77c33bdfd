import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '@/components/chart/chart';
import { baseOption, type ChartTheme } from '@/components/chart/chart-theme';
import { Panel } from '@/components/panel';
import { LabelledSelect } from '@/components/select';
import { formatNumber, formatQuantity } from '@/lib/format';
import { usePlan } from './api/plan';
import styles from './monitor.module.css';

/** Planned against actual generation per month of a year, with the completion ratio. */
export function PlanChart() {
  const { t } = useTranslation();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const plan = usePlan(year);
  const months = useMemo(() => plan.data?.months ?? [], [plan.data]);
  const unit = plan.data?.unit ?? 'kWh';

  const option = useCallback(
    (theme: ChartTheme) => {
      const base = baseOption(theme);
      return {
        color: [theme.color('primary', 3), theme.color('primary'), theme.color('green')],
        textStyle: base.textStyle,
        grid: base.grid,
        legend: base.legend,
        tooltip: { ...base.tooltip, valueFormatter: (value: unknown) => formatNumber(Number(value), 1) },
        xAxis: {
          type: 'category',
          data: months.map((month) => t('common.monthShort', { month: month.month })),
          ...base.axis,
          splitLine: { show: false },
        },
        yAxis: [
          { type: 'value', name: unit, ...base.axis },
          { type: 'value', name: '%', ...base.axis, splitLine: { show: false } },
        ],
        series: [
          { name: t('monitor.plan.plan'), type: 'bar', barMaxWidth: 14, data: months.map((month) => month.planKwh) },
          { name: t('monitor.plan.actual'), type: 'bar', barMaxWidth: 14, data: months.map((month) => month.actualKwh) },
          {
            name: t('monitor.plan.completion'),
            type: 'line',
            yAxisIndex: 1,
            smooth: true,
            data: months.map((month) => month.completion),
          },
        ],
      };
    },
    [months, unit, t],
  );

  const years = [thisYear, thisYear - 1, thisYear - 2];
  return (
    <Panel
      title={t('monitor.plan.title')}
      extra={
        <>
          {plan.data?.completion !== undefined && (
            <span className={styles.caption}>
              {t('monitor.plan.yearCompletion')} {formatQuantity(plan.data.completion, '%', { digits: 1 })}
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
          option={option}
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
