import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { StatusTag, statusColor } from '@/components/status-tag';
import { formatNumber, formatQuantity } from '@/lib/format';
import { DEVICE_STATES, DEVICE_TYPES, useDeviceSummary, useInverterStatus } from './api/devices';
import styles from './device.module.css';

/** Devices by type, each with its count per state. */
export function DeviceSummaryCards() {
  const { t } = useTranslation();
  const summary = useDeviceSummary();
  const data = summary.data;
  return (
    <DataState loading={summary.isPending} error={summary.isError} onRetry={() => void summary.refetch()} minHeight={110}>
      {data && (
        <div className={styles.summary}>
          <section className={styles.typeCard} aria-label={t('device.summary.all')}>
            <h2>{t('device.summary.all')}</h2>
            <p className={styles.count}>{formatNumber(data.total, 0)}</p>
            <ul className={styles.states}>
              {DEVICE_STATES.map((state) => (
                <li key={state}>
                  <StatusTag category="deviceState" value={state} dot /> {formatNumber(data.byState[state] ?? 0, 0)}
                </li>
              ))}
            </ul>
          </section>
          {DEVICE_TYPES.map((type) => {
            const states = data.byType[type] ?? {};
            const total = Object.values(states).reduce((sum, count) => sum + count, 0);
            return (
              <section key={type} className={styles.typeCard} aria-label={t(`device.type.${type}`)}>
                <h2>{t(`device.type.${type}`)}</h2>
                <p className={styles.count}>{formatNumber(total, 0)}</p>
                <ul className={styles.states}>
                  {DEVICE_STATES.map((state) => (
                    <li key={state}>
                      <StatusTag category="deviceState" value={state} dot /> {formatNumber(states[state] ?? 0, 0)}
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      )}
    </DataState>
  );
}

/** The inverters' state overview: how many run, stand by, fail or are silent, and their load. */
export function InverterOverview() {
  const { t } = useTranslation();
  const status = useInverterStatus();
  const data = status.data;
  return (
    <DataState loading={status.isPending} error={status.isError} empty={data?.total === 0} onRetry={() => void status.refetch()} minHeight={110}>
      {data && (
        <section className={styles.typeCard} aria-label={t('device.inverters.title')} style={{ marginBottom: 16 }}>
          <h2>{t('device.inverters.title')}</h2>
          <div className={styles.stateBar} role="img" aria-label={DEVICE_STATES.map((state) => `${t(`status.deviceState.${state}`)} ${data.byState[state] ?? 0}`).join(', ')}>
            {DEVICE_STATES.map((state) => (
              <span
                key={state}
                style={{
                  width: `${data.total ? ((data.byState[state] ?? 0) / data.total) * 100 : 0}%`,
                  background: `rgb(var(--${statusColor('deviceState', state)}-6))`,
                }}
              />
            ))}
          </div>
          <ul className={styles.states}>
            <li>
              {t('device.inverters.total')} {formatNumber(data.total, 0)}
            </li>
            {DEVICE_STATES.map((state) => (
              <li key={state}>
                <StatusTag category="deviceState" value={state} dot /> {formatNumber(data.byState[state] ?? 0, 0)}
              </li>
            ))}
            <li>
              {t('device.inverters.power')} {formatQuantity(data.currentPowerKw, 'kW', { scale: true })} /{' '}
              {formatQuantity(data.ratedPowerKw, 'kW', { scale: true })} (
              {formatQuantity(data.ratedPowerKw ? (data.currentPowerKw / data.ratedPowerKw) * 100 : 0, '%', { digits: 1 })})
            </li>
          </ul>
        </section>
      )}
    </DataState>
  );
}
