import { useTranslation } from 'react-i18next';
import { StatusTag } from '@/components/status-tag';
import { formatNumber, formatQuantity, scaleQuantity } from '@/lib/format';
import type { WallStation } from './api';
import styles from './realtime.module.css';

/** One station: live power against capacity, communication and alarm state. */
export function StationTile({ station }: { station: WallStation }) {
  const { t } = useTranslation();
  const power = scaleQuantity(station.currentPowerKw, 'kW');
  const share = Math.max(0, Math.min(100, station.powerNormalization));
  const headingId = `tile-${station.id}`;
  return (
    <li
      className={styles.tile}
      aria-labelledby={headingId}
      data-alarm={station.alarmExist === 1 || undefined}
      data-comm={station.communicationStatus}
      data-station-id={station.id}
    >
      <h2 id={headingId} className={styles.name} title={station.name}>
        {station.name}
      </h2>
      <p className={styles.power} data-testid="tile-power" title={`${formatNumber(station.currentPowerKw, 3)} kW`}>
        {formatNumber(power.value, 2)}
        <span className={styles.unit}>{power.unit}</span>
      </p>
      <div
        className={styles.meter}
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 10) / 10}
        aria-label={t('realtime.normalization')}
      >
        <span className={styles.meterFill} style={{ width: `${share}%` }} />
      </div>
      <p className={styles.caption}>
        {t('realtime.ofCapacity', {
          share: formatQuantity(station.powerNormalization, '%', { digits: 1 }),
          capacity: formatQuantity(station.capacityKwp, 'kWp', { digits: 0 }),
        })}
      </p>
      <p className={styles.caption}>
        {t('realtime.today', { energy: formatQuantity(station.dailyEnergyKwh, 'kWh', { digits: 0 }) })} ·{' '}
        {t('realtime.devices', { online: station.devicesOnline, total: station.devicesTotal })}
      </p>
      <div className={styles.tags}>
        <StatusTag category="communicationStatus" value={station.communicationStatus} dot />
        <StatusTag category="alarmExist" value={station.alarmExist} dot />
      </div>
      {station.alarmExist === 1 && station.latestAlarm && (
        <p className={styles.alarm} title={station.latestAlarm}>
          {station.latestAlarm}
        </p>
      )}
    </li>
  );
}
