import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '@/components/chart/chart';
import { baseOption, type ChartTheme } from '@/components/chart/chart-theme';
import { Panel } from '@/components/panel';
import { type TrendType, useFaultTrend } from './api/alarms';
import styles from './monitor.module.css';
import { PeriodSwitch } from './period-switch';

const TYPES: readonly TrendType[] = ['day', 'month', 'year'];
const DEVICE_TYPES = ['inverter', 'battery', 'storage', 'meter'] as const;

/** Alarms per device type over 15 days, 12 months or the years. */
export function FaultTrend() {
  const { t } = useTranslation();
  const [type, setType] = useState<TrendType>('day');
  const trend = useFaultTrend(type);
  const list = useMemo(() => trend.data?.list ?? [], [trend.data]);

  const option = useCallback(
    (theme: ChartTheme) => {
      const base = baseOption(theme);
      return {
        color: [theme.color('primary'), theme.color('green'), theme.color('orange'), theme.color('purple')],
        textStyle: base.textStyle,
        grid: base.grid,
        legend: base.legend,
        tooltip: base.tooltip,
        xAxis: {
          type: 'category',
          data: list.map((point) => (type === 'day' ? point.date.slice(5) : point.date)),
          ...base.axis,
          splitLine: { show: false },
        },
        yAxis: { type: 'value', minInterval: 1, ...base.axis },
        series: DEVICE_TYPES.map((deviceType) => ({
          name: t(`device.type.${deviceType}`),
          type: 'bar',
          stack: 'faults',
          barMaxWidth: 18,
          data: list.map((point) => point[deviceType] ?? 0),
        })),
      };
    },
    [list, type, t],
  );

  return (
    <Panel
      title={t('monitor.faultTrend.title')}
      extra={<PeriodSwitch value={type} options={TYPES} onChange={setType} label={t('monitor.faultTrend.period')} labelPrefix="monitor.faultTrend" />}
    >
      <div className={styles.chart}>
        <Chart
          option={option}
          label={t('monitor.faultTrend.title')}
          loading={trend.isPending}
          error={trend.isError && !trend.data}
          empty={list.length === 0}
          onRetry={() => void trend.refetch()}
        />
      </div>
    </Panel>
  );
}
