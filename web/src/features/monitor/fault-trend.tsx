import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import type { ChartTheme } from '@/components/chart/chart-theme';
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

  const spec = useCallback(
    (theme: ChartTheme): ChartSpec => {
      const colors = [theme.color('primary'), theme.color('green'), theme.color('orange'), theme.color('purple')];
      return {
        categories: list.map((point) => (type === 'day' ? point.date.slice(5) : point.date)),
        legend: true,
        format: (value) => String(value),
        axes: [{ integer: true }],
        series: DEVICE_TYPES.map((deviceType, index) => ({
          name: t(`device.type.${deviceType}`),
          kind: 'bar',
          stack: 'faults',
          color: colors[index],
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
          spec={spec}
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
