import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import type { ChartTheme } from '@/components/chart/chart-theme';
import { Panel } from '@/components/panel';
import { LabelledSelect } from '@/components/select';
import { formatDate, formatMonth, formatNumber, formatTime } from '@/lib/format';
import { STORAGE_KEYS } from '@/lib/storage';
import { currenciesOf, type PowerPeriod, type PowerPoint, sinceStarted, twoHourPoints, usePowerData } from './api/power-data';
import styles from './monitor.module.css';
import { PeriodSwitch } from './period-switch';
import { monitorTexts } from './texts';

const PERIODS: readonly PowerPeriod[] = ['day', 'month', 'year', 'total'];

/** The currency choice of the line that shows every currency in the base one. */
const BASE = '@base';

/** The currency of each console location (the navbar's location switch). */
const LOCATION_CURRENCY: Record<string, string> = { CN: 'CNY', US: 'USD', JP: 'JPY', KR: 'KRW', TW: 'TWD' };

/** The currency shown first: the one of the chosen location when the fleet earns in it. */
export function preferredCurrency(currencies: readonly string[]): string | undefined {
  let location = 'CN';
  try {
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.location) ?? '{}') as { state?: { location?: string } };
    location = stored.state?.location ?? location;
  } catch {
    // no stored location: the default one
  }
  const wanted = LOCATION_CURRENCY[location];
  return wanted && currencies.includes(wanted) ? wanted : currencies[0];
}

/** The x-axis label of a bucket: 02:00, 11-05, 2026-03, 2025. */
export function bucketLabel(period: PowerPeriod, time: number): string {
  switch (period) {
    case 'day':
      return formatTime(time);
    case 'month':
      return formatDate(time).slice(5);
    case 'year':
      return formatMonth(time);
    default:
      return formatDate(time).slice(0, 4);
  }
}

const SERIES = [
  { key: 'pvKwh', label: 'monitor.flow.pv' },
  { key: 'exportKwh', label: 'monitor.flow.export' },
  { key: 'loadKwh', label: 'monitor.flow.load' },
  { key: 'dischargeKwh', label: 'monitor.flow.discharge' },
] as const;

/** Generation and its value: the fleet's energy flows with the profit of one currency. */
export function ProfitChart() {
  const { t } = useTranslation();
  monitorTexts.useReady();
  const [period, setPeriod] = useState<PowerPeriod>('day');
  const [chosenCurrency, setCurrency] = useState<string>();
  const power = usePowerData(period);

  const points = useMemo<PowerPoint[]>(() => {
    const raw = power.data?.points ?? [];
    return period === 'day' ? twoHourPoints(raw) : raw;
  }, [power.data, period]);
  const currencies = useMemo(() => currenciesOf(points), [points]);
  const base = power.data?.baseCurrency;
  // the line: every currency in the base one (the default), or one currency on its own
  const currency = chosenCurrency && currencies.includes(chosenCurrency) ? chosenCurrency : base ? BASE : preferredCurrency(currencies);
  const lineCurrency = currency === BASE ? base : currency;
  const unit = power.data?.unit ?? 'kWh';
  const opening = period === 'total' ? power.data?.opening : undefined;

  const spec = useCallback(
    (theme: ChartTheme): ChartSpec => {
      const now = Date.now();
      const shown = SERIES.filter((series) => series.key === 'pvKwh' || points.some((point) => point[series.key] > 0));
      return {
        categories: points.map((point) => bucketLabel(period, point.time)),
        legend: true,
        format: (value) => formatNumber(value, 2),
        axes: lineCurrency ? [{ name: unit }, { name: lineCurrency }] : [{ name: unit }],
        series: [
          ...shown.map((series, index) => ({
            name: t(series.label),
            kind: 'bar' as const,
            color: theme.palette[index],
            unit,
            data: points.map((point) => sinceStarted(point, point[series.key], now)),
          })),
          ...(lineCurrency
            ? [
                {
                  name: t('monitor.flow.profit', { currency: lineCurrency }),
                  kind: 'line' as const,
                  axis: 1 as const,
                  smooth: true,
                  dots: true,
                  color: theme.color('gold'),
                  data: points.map((point) =>
                    sinceStarted(point, currency === BASE ? (point.profitBase ?? 0) : (point.profit?.[currency ?? ''] ?? 0), now),
                  ),
                },
              ]
            : []),
        ],
      };
    },
    [points, period, currency, lineCurrency, unit, t],
  );

  return (
    <Panel
      title={t('monitor.profit.title')}
      extra={
        <>
          {(currencies.length > 1 || (base && currencies.some((code) => code !== base))) && (
            <LabelledSelect
              size="small"
              style={{ width: 150 }}
              value={currency}
              onChange={(value: string) => setCurrency(value)}
              label={t('monitor.profit.currency')}
              options={[...(base ? [{ value: BASE, label: t('monitor.money.all', { currency: base }) }] : []), ...currencies]}
            />
          )}
          <PeriodSwitch value={period} options={PERIODS} onChange={setPeriod} label={t('monitor.profit.period')} />
        </>
      }
    >
      <div className={styles.chart}>
        <Chart
          spec={spec}
          label={t('monitor.profit.title')}
          loading={power.isPending}
          error={power.isError && !power.data}
          empty={points.length === 0}
          onRetry={() => void power.refetch()}
        />
      </div>
      <p className={styles.caption}>{t(`monitor.chartRule.${period}`)}</p>
      {currency === BASE && power.data?.unconverted && power.data.unconverted.length > 0 && (
        <p className={styles.caption}>{t('monitor.money.unconvertedChart', { currencies: power.data.unconverted.join(', ') })}</p>
      )}
      {opening && opening.pvKwh > 0 && (
        <p className={styles.caption}>
          {t('monitor.profit.opening', { energy: formatNumber(opening.pvKwh, 0), year: bucketLabel('total', opening.time) })}
        </p>
      )}
    </Panel>
  );
}
