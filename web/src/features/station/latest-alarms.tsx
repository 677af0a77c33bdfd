import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { PlainTable } from '@/components/plain-table';
import { StatusTag } from '@/components/status-tag';
import { ZonedTime } from '@/components/zoned-time';
import { useLatestAlarms } from './api/stations';
import styles from './station.module.css';

/** The station's latest alarms (sub-stations included). */
export function LatestAlarms({ stationId }: { stationId: number }) {
  const { t } = useTranslation();
  const alarms = useLatestAlarms(stationId);
  const list = alarms.data?.list ?? [];
  return (
    <Panel title={t('station.alarms.title')}>
      <DataState
        loading={alarms.isPending}
        error={alarms.isError}
        empty={list.length === 0}
        emptyText={t('station.alarms.empty')}
        onRetry={() => void alarms.refetch()}
        minHeight={160}
      >
        <PlainTable>
          <thead>
            <tr>
              <th scope="col">{t('station.alarms.time')}</th>
              <th scope="col">{t('station.alarms.device')}</th>
              <th scope="col">{t('station.alarms.description')}</th>
              <th scope="col">{t('station.alarms.status')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((alarm) => (
              <tr key={alarm.id}>
                <td>
                  <ZonedTime value={alarm.occurTime} timeZone={alarm.timezone} />
                </td>
                <td>
                  {alarm.deviceName}
                  <div className={styles.muted}>{alarm.deviceSn}</div>
                </td>
                <td>{alarm.description}</td>
                <td>
                  <StatusTag category="alarmStatus" value={alarm.alarmStatus} dot />
                </td>
              </tr>
            ))}
          </tbody>
        </PlainTable>
      </DataState>
    </Panel>
  );
}
