import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import statTiles from '@/components/stat-tiles.module.css';
import { formatNumber } from '@/lib/format';
import styles from './alarm.module.css';
import { ALARM_LEVELS, useDailyInfo } from './api/alarms';

/** Today's alarms (GET /v2/warn/dailyinfo) for the station chosen in the filters, or all. */
export function AlarmSummary({ stationId }: { stationId?: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const daily = useDailyInfo(stationId);
  const info = daily.data;

  const tiles = info
    ? [
        { key: 'total', label: t('alarm.today.total'), value: String(info.total) },
        { key: 'unprocessed', label: t('alarm.today.unprocessed'), value: String(info.unprocessed), accent: info.unprocessed > 0 },
        { key: 'processed', label: t('alarm.today.processed'), value: String(info.processed) },
        { key: 'ratio', label: t('alarm.today.ratio'), value: `${formatNumber(info.processRatio, 1)}%` },
        { key: 'occurring', label: t('alarm.today.occurring'), value: String(info.occurring) },
        { key: 'device', label: t('alarm.today.device'), value: String(info.deviceAlarms) },
        { key: 'data', label: t('alarm.today.data'), value: String(info.dataAlarms) },
      ]
    : [];

  return (
    <section className={styles.summary} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {t('alarm.today.title')}
      </h2>
      <DataState
        loading={daily.isPending}
        error={daily.isError && !info}
        onRetry={() => void daily.refetch()}
        minHeight={88}
      >
        <dl className={statTiles.tiles}>
          {tiles.map((tile) => (
            <div key={tile.key} className={statTiles.tile} data-accent={tile.accent || undefined}>
              <dt>{tile.label}</dt>
              <dd>{tile.value}</dd>
            </div>
          ))}
          <div className={`${statTiles.tile} ${styles.levels}`}>
            <dt>{t('alarm.today.byLevel')}</dt>
            <dd>
              {ALARM_LEVELS.map((level) => (
                <span key={level} className={styles.levelCount} data-level={level}>
                  {t(`alarm.level.${level}`)} {info?.byLevel?.[String(level)] ?? 0}
                </span>
              ))}
            </dd>
          </div>
        </dl>
      </DataState>
    </section>
  );
}
