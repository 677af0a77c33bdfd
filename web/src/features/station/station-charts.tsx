import Radio from '@arco-design/web-react/es/Radio';
import '@arco-design/web-react/es/Radio/style/css.js';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import { DayPicker, MonthPicker, YearPicker } from '@/components/date-pickers';
import { Panel } from '@/components/panel';
import { formatDateTimeIn, formatNumber, todayIn } from '@/lib/format';
import { usePowerTrend, useMonthEnergy, useYearEnergy } from './api/stations';
import type { Series } from './api/types';
import styles from './station.module.css';

function seriesSpec(series: Series, labels: string[], name: string, kind: 'bar' | 'line'): ChartSpec {
  const line = kind === 'line';
  return {
    categories: labels,
    edges: line,
    format: (value) => formatNumber(value, 2),
    axes: [{ name: series.unit }],
    series: [{ name, kind, smooth: line, area: line, unit: series.unit, data: series.points.map((point) => point[1]) }],
  };
}

const disabledFuture = (current: { isAfter: (date: Date) => boolean }) => current.isAfter(new Date());

/** AC power over a chosen station-local day. */
export function PowerCurve({ stationId, timezone }: { stationId: number; timezone: string }) {
  const { t } = useTranslation();
  const [date, setDate] = useState(() => todayIn(timezone));
  const trend = usePowerTrend(stationId, date);
  const data = trend.data;
  const spec = useCallback(
    () =>
      seriesSpec(
        data ?? { unit: 'kW', points: [] },
        (data?.points ?? []).map((point) => formatDateTimeIn(point[0], timezone).slice(11, 16)),
        t('station.chart.power'),
        'line',
      ),
    [data, timezone, t],
  );
  return (
    <Panel
      title={t('station.chart.powerCurve')}
      extra={
        <DayPicker
          size="small"
          value={date}
          allowClear={false}
          disabledDate={disabledFuture}
          onChange={(value: string) => value && setDate(value)}
          aria-label={t('station.chart.day')}
        />
      }
    >
      <div className={styles.chart}>
        <Chart
          spec={spec}
          label={t('station.chart.powerCurve')}
          loading={trend.isPending}
          error={trend.isError && !data}
          empty={(data?.points.length ?? 0) === 0}
          onRetry={() => void trend.refetch()}
        />
      </div>
    </Panel>
  );
}

type EnergyView = 'month' | 'year';

/** Energy per day of a month, or per month of a year. */
export function EnergyChart({ stationId, timezone }: { stationId: number; timezone: string }) {
  const { t } = useTranslation();
  const today = todayIn(timezone);
  const [view, setView] = useState<EnergyView>('month');
  const [month, setMonth] = useState(today.slice(0, 7));
  const [year, setYear] = useState(Number(today.slice(0, 4)));
  const monthly = useMonthEnergy(stationId, month);
  const yearly = useYearEnergy(stationId, year, view === 'year');
  const query = view === 'month' ? monthly : yearly;
  const data = view === 'month' ? monthly.data : yearly.data;
  const spec = useCallback(
    () =>
      seriesSpec(
        data ?? { unit: 'kWh', points: [] },
        (data?.points ?? []).map((point) =>
          view === 'month'
            ? formatDateTimeIn(point[0], timezone).slice(5, 10)
            : t('common.monthShort', { month: Number(formatDateTimeIn(point[0], timezone).slice(5, 7)) }),
        ),
        t('station.chart.energy'),
        'bar',
      ),
    [data, view, timezone, t],
  );
  return (
    <Panel
      title={t('station.chart.energyTitle')}
      extra={
        <>
          <div role="group" aria-label={t('station.chart.energyView')}>
            <Radio.Group type="button" size="small" value={view} onChange={(next: EnergyView) => setView(next)}>
              <Radio value="month">{t('station.chart.energy.month')}</Radio>
              <Radio value="year">{t('station.chart.energy.year')}</Radio>
            </Radio.Group>
          </div>
          {view === 'month' ? (
            <MonthPicker
              size="small"
              value={month}
              allowClear={false}
              disabledDate={disabledFuture}
              onChange={(value: string) => value && setMonth(value)}
              aria-label={t('station.chart.month')}
            />
          ) : (
            <YearPicker
              size="small"
              value={String(year)}
              allowClear={false}
              disabledDate={disabledFuture}
              onChange={(value: string) => value && setYear(Number(value))}
              aria-label={t('station.chart.year')}
            />
          )}
        </>
      }
    >
      <div className={styles.chart}>
        <Chart
          spec={spec}
          label={t('station.chart.energyTitle')}
          loading={query.isPending}
          error={query.isError && !data}
          empty={(data?.points.length ?? 0) === 0}
          onRetry={() => void query.refetch()}
        />
      </div>
    </Panel>
  );
}
