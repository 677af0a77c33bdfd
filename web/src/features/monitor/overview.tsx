import Progress from '@arco-design/web-react/es/Progress';
import '@arco-design/web-react/es/Progress/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { formatChange, formatNumber, formatQuantity, scaleQuantity } from '@/lib/format';
import { useDailyAlarms } from './api/alarms';
import { type PeriodFigure, type PeriodKey, useFleetSummary } from './api/summary';
import styles from './monitor.module.css';
import { PeriodSwitch } from './period-switch';
import { ProfitTile } from './profit-tile';
import { monitorTexts } from './texts';

const PERIODS: readonly PeriodKey[] = ['day', 'month', 'year', 'total'];

function Big({ value, unit }: { value: number; unit: string }) {
  const scaled = scaleQuantity(value, unit);
  // the exact figure in its own unit on hover: 3.71 MW is 3,712.437 kW
  return (
    <p className={styles.big} title={`${formatNumber(value, 3)} ${unit}`}>
      {formatNumber(scaled.value, 2)}
      <span className={styles.bigUnit}>{scaled.unit}</span>
    </p>
  );
}

function Change({ figure, period }: { figure: PeriodFigure; period: PeriodKey }) {
  const { t } = useTranslation();
  monitorTexts.useReady();
  if (period === 'total' || figure.previous === 0) {
    return null;
  }
  const direction = figure.change > 0 ? styles.up : figure.change < 0 ? styles.down : styles.flat;
  const arrow = figure.change > 0 ? '↑' : figure.change < 0 ? '↓' : '';
  const rule = figure.compare ? t(`monitor.compare.${figure.compare}`) : t(`monitor.change.${period}`);
  return (
    <span className={`${styles.change} ${direction}`} title={rule} tabIndex={0} aria-description={rule}>
      {arrow} {formatChange(figure.change)} <span className={styles.muted}>{t(`monitor.change.${period}`)}</span>
    </span>
  );
}

/** Alarms that started today: device and data alarms, and how many were dealt with. */
export function AlarmsToday() {
  const { t } = useTranslation();
  const alarms = useDailyAlarms();
  const data = alarms.data;
  return (
    <Panel title={t('monitor.alarms.title')} className={styles.widget}>
      <DataState loading={alarms.isPending} error={alarms.isError} onRetry={() => void alarms.refetch()} minHeight={200}>
        {data && (
          <>
            <p className={styles.big} aria-label={t('monitor.alarms.total')}>
              {formatNumber(data.total, 0)}
            </p>
            <p className={styles.caption}>{t('monitor.alarms.total')}</p>
            <dl className={styles.figures}>
              <div>
                <dt>{t('monitor.alarms.device')}</dt>
                <dd>{formatNumber(data.deviceAlarms, 0)}</dd>
              </div>
              <div>
                <dt>{t('monitor.alarms.data')}</dt>
                <dd>{formatNumber(data.dataAlarms, 0)}</dd>
              </div>
              <div>
                <dt>{t('monitor.alarms.processed')}</dt>
                <dd>{formatNumber(data.processed, 0)}</dd>
              </div>
              <div>
                <dt>{t('monitor.alarms.unprocessed')}</dt>
                <dd>{formatNumber(data.unprocessed, 0)}</dd>
              </div>
            </dl>
            <p className={styles.caption} style={{ marginTop: 12 }}>
              {t('monitor.alarms.processRatio')}
            </p>
            <Progress
              percent={Math.round(data.processRatio * 10) / 10}
              formatText={(percent: number) => formatQuantity(percent, '%', { digits: 1 })}
              aria-label={t('monitor.alarms.processRatio')}
            />
          </>
        )}
      </DataState>
    </Panel>
  );
}

/** Online and fault ratios of the fleet's devices. */
export function DeviceRatios() {
  const { t } = useTranslation();
  const summary = useFleetSummary();
  const data = summary.data;
  return (
    <Panel title={t('monitor.devices.title')} className={styles.widget}>
      <DataState
        loading={summary.isPending}
        error={summary.isError}
        empty={data?.devices === 0}
        onRetry={() => void summary.refetch()}
        minHeight={200}
      >
        {data && (
          <>
            <div className={styles.rings}>
              <div>
                <Progress
                  type="circle"
                  percent={Math.round(data.onlineRatio * 10) / 10}
                  status="success"
                  formatText={(percent: number) => formatQuantity(percent, '%', { digits: 1 })}
                  aria-label={t('monitor.devices.onlineRatio')}
                />
                <div className={styles.ringLabel}>{t('monitor.devices.onlineRatio')}</div>
              </div>
              <div>
                <Progress
                  type="circle"
                  percent={Math.round(data.faultRatio * 10) / 10}
                  status={data.faultRatio > 0 ? 'error' : 'normal'}
                  formatText={(percent: number) => formatQuantity(percent, '%', { digits: 1 })}
                  aria-label={t('monitor.devices.faultRatio')}
                />
                <div className={styles.ringLabel}>{t('monitor.devices.faultRatio')}</div>
              </div>
            </div>
            <dl className={styles.figures}>
              <div>
                <dt>{t('monitor.devices.online')}</dt>
                <dd>
                  {formatNumber(data.devicesOnline, 0)} / {formatNumber(data.devices, 0)}
                </dd>
              </div>
              <div>
                <dt>{t('monitor.devices.fault')}</dt>
                <dd>{formatNumber(data.devicesFault, 0)}</dd>
              </div>
              <div>
                <dt>{t('monitor.stations')}</dt>
                <dd>{formatNumber(data.stations, 0)}</dd>
              </div>
              <div>
                <dt>{t('monitor.capacity')}</dt>
                <dd>{formatQuantity(data.capacityKwp, 'kWp', { scale: true })}</dd>
              </div>
            </dl>
          </>
        )}
      </DataState>
    </Panel>
  );
}

/** Power now, and generation, carbon reduction and profit by day, month, year and in total. */
export function Generation() {
  const { t } = useTranslation();
  monitorTexts.useReady();
  const summary = useFleetSummary();
  const [period, setPeriod] = useState<PeriodKey>('day');
  const data = summary.data;
  return (
    <Panel
      title={t('monitor.generation.title')}
      className={styles.widget}
      extra={
        <PeriodSwitch value={period} options={PERIODS} onChange={setPeriod} label={t('monitor.generation.period')} />
      }
    >
      <DataState loading={summary.isPending} error={summary.isError} onRetry={() => void summary.refetch()} minHeight={200}>
        {data && (
          <div className={styles.energyGrid}>
            <div data-testid="current-power">
              <p className={styles.caption}>{t('monitor.power.current')}</p>
              <Big value={data.currentPowerKw} unit="kW" />
              <p className={styles.caption}>
                {t('monitor.power.normalization')} {formatQuantity(data.powerNormalization, '%', { digits: 1 })}
              </p>
            </div>
            <div data-testid="generation">
              <p className={styles.caption} title={t(`monitor.period.${period}`)}>
                {t(`monitor.generation.${period}`)}
              </p>
              <Big value={data.energyKwh[period].value} unit="kWh" />
              <p className={styles.caption}>
                <Change figure={data.energyKwh[period]} period={period} />
              </p>
            </div>
            <div data-testid="co2">
              <p className={styles.caption}>{t(`monitor.co2.${period}`)}</p>
              <Big value={data.co2ReductionKg[period].value} unit="kg" />
              <p className={styles.caption}>
                <Change figure={data.co2ReductionKg[period]} period={period} />
              </p>
            </div>
            <div style={{ gridColumn: '1 / -1' }}>
              <p className={styles.caption}>{t(`monitor.profit.${period}`)}</p>
              <ProfitTile summary={data} period={period} />
            </div>
          </div>
        )}
      </DataState>
    </Panel>
  );
}
