import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import type { ChartTheme } from '@/components/chart/chart-theme';
import { DataState } from '@/components/data-state';
import { LabelledSelect, Option } from '@/components/select';
import { formatNumber } from '@/lib/format';
import styles from './analysis.module.css';
import { type OverviewQuery, type PeriodQuery, useOverview } from './api/overview';
import { useParameters } from './api/reports';
import { OverviewDevicePicker } from './device-picker';
import { flowKind, flowSeries } from './flow-cards';
import { KpiCards } from './kpi-cards';
import { PeriodPicker, thisMonth } from './period-picker';

/** The data overview: the fleet's, a station's or one device's KPIs over a period, each beside its formula, and the energy per bucket. */
export function OverviewTab() {
  const { t } = useTranslation();
  const params = useParameters();
  const [stationId, setStationId] = useState<number | 0>(0);
  const [deviceId, setDeviceId] = useState<number | 0>(0);
  const [period, setPeriod] = useState<PeriodQuery>(thisMonth);
  const scope = deviceId ? 'device' : stationId ? 'station' : 'fleet';
  const query: OverviewQuery = { ...period, scope, ...(scope !== 'fleet' ? { id: deviceId || stationId } : {}) };
  const overview = useOverview(query);
  const o = overview.data;

  const spec = useCallback(
    (theme: ChartTheme): ChartSpec => {
      const flows = o ? flowSeries(o) : [];
      if (flows.length > 0) {
        const colors = ['primary', 'green'] as const;
        return {
          categories: o?.series.map((p) => p.label) ?? [],
          legend: true,
          axes: [{ name: 'kWh' }],
          series: flows.map((f, i) => ({ name: t(`analysis.metric.${f.key}`), kind: 'bar', unit: 'kWh', color: theme.color(colors[i % 2]!), data: f.values })),
        };
      }
      return {
        categories: o?.series.map((p) => p.label) ?? [],
        legend: true,
        axes: [{ name: 'kWh' }, { name: '%' }],
        series: [
          { name: t('analysis.metric.yield'), kind: 'bar', unit: 'kWh', color: theme.color('primary'), data: o?.series.map((p) => p.kpis.yieldKwh) ?? [] },
          { name: t('analysis.metric.expected'), kind: 'bar', unit: 'kWh', color: theme.color('green'), data: o?.series.map((p) => p.kpis.expectedKwh) ?? [] },
          { name: t('analysis.metric.pr'), kind: 'line', axis: 1, unit: '%', color: theme.color('orange'), data: o?.series.map((p) => p.kpis.pr) ?? [] },
        ],
      };
    },
    [o, t],
  );

  const flows = o ? flowKind(o) : null;
  const chartTitle = flows ? t(`analysis.chart.flows.${flows}`) : t('analysis.chart.energy');

  return (
    <div>
      <div className={styles.controls}>
        <LabelledSelect
          label={t('analysis.scope')}
          style={{ width: 260 }}
          value={stationId}
          onChange={(v: number) => {
            setStationId(v);
            setDeviceId(0);
          }}
          showSearch
          filterOption={(input, option) => String((option as { props?: { children?: unknown } })?.props?.children ?? '').toLowerCase().includes(input.toLowerCase())}
        >
          <Option value={0}>{t('analysis.scope.fleet')}</Option>
          {params.data?.stations.map((s) => (
            <Option key={s.id} value={s.id}>
              {s.name}
            </Option>
          ))}
        </LabelledSelect>
        <OverviewDevicePicker stationId={stationId} value={deviceId} onChange={setDeviceId} />
        <PeriodPicker value={period} onChange={setPeriod} />
        {o && (
          <span className={styles.muted}>
            {o.device
              ? t('analysis.range.device', {
                  first: o.period.first,
                  last: o.period.last,
                  station: o.device.stationName,
                  capacity: o.device.capacitySource
                    ? `${formatNumber(o.site.capacityKwp)} ${o.device.capacitySource === 'rated' ? 'kW' : 'kWp'}`
                    : t('analysis.capacity.unknown'),
                })
              : t('analysis.range', { first: o.period.first, last: o.period.last, capacity: formatNumber(o.site.capacityKwp) })}
          </span>
        )}
      </div>
      <DataState loading={overview.isPending} error={overview.isError && !o} onRetry={() => void overview.refetch()} minHeight={320}>
        {o && (
          <>
            <KpiCards overview={o} />
            <h2 className={styles.section}>{chartTitle}</h2>
            <div className={styles.chart}>
              <Chart
                spec={spec}
                label={chartTitle}
                empty={o.series.length === 0}
                zoom
                exportName={`overview-${o.period.first}_${o.period.last}`}
              />
            </div>
          </>
        )}
      </DataState>
    </div>
  );
}
