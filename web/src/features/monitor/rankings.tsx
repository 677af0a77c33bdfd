import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import table from '@/components/plain-table.module.css';
import { formatNumber, formatQuantity } from '@/lib/format';
import { TOP_DEVICES, useMaintenanceRanking, useProjectRanking, useTopDevices } from './api/rankings';
import styles from './monitor.module.css';

function Rank({ rank }: { rank: number }) {
  return <span className={`${styles.rank} ${rank <= 3 ? styles.rankTop : ''}`}>{rank}</span>;
}

/** The Top 6 devices by today's equivalent hours. */
export function TopDevices() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const top = useTopDevices();
  const list = top.data ?? [];
  return (
    <Panel title={t('monitor.top.title', { count: TOP_DEVICES })} className={styles.widget}>
      <DataState loading={top.isPending} error={top.isError} empty={list.length === 0} onRetry={() => void top.refetch()} minHeight={240}>
        <div className={styles.scroll}>
          <table className={table.table}>
            <thead>
              <tr>
                <th scope="col">{t('monitor.rank')}</th>
                <th scope="col">{t('monitor.top.device')}</th>
                <th scope="col" className={table.num}>
                  {t('monitor.top.today')}
                </th>
                <th scope="col" className={table.num}>
                  {t('monitor.top.hours')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((device) => (
                <tr key={device.id}>
                  <td>
                    <Rank rank={device.rank} />
                  </td>
                  <td>
                    <button type="button" className={styles.link} onClick={() => navigate(`/device/detail/${device.id}`)}>
                      {device.name}
                    </button>
                    <div className={styles.muted}>{device.stationName}</div>
                  </td>
                  <td className={table.num}>{formatQuantity(device.todayKwh, 'kWh', { digits: 1 })}</td>
                  <td className={table.num}>{formatQuantity(device.equivalentHours, 'h', { digits: 2 })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DataState>
    </Panel>
  );
}

/** Users ranked by alarms dealt in the last 30 days. */
export function MaintenanceRanking() {
  const { t } = useTranslation();
  const ranking = useMaintenanceRanking();
  const list = ranking.data ?? [];
  return (
    <Panel title={t('monitor.maintenance.title')} className={styles.widget}>
      <DataState
        loading={ranking.isPending}
        error={ranking.isError}
        empty={list.length === 0}
        emptyText={t('monitor.maintenance.empty')}
        onRetry={() => void ranking.refetch()}
        minHeight={240}
      >
        <div className={styles.scroll}>
          <table className={table.table}>
            <thead>
              <tr>
                <th scope="col">{t('monitor.rank')}</th>
                <th scope="col">{t('monitor.maintenance.name')}</th>
                <th scope="col" className={table.num}>
                  {t('monitor.maintenance.finished')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((user) => (
                <tr key={user.userId}>
                  <td>
                    <Rank rank={user.rank} />
                  </td>
                  <td>{user.name}</td>
                  <td className={table.num}>{formatNumber(user.finishCount, 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DataState>
    </Panel>
  );
}

/** Stations ranked by today's alarms, with how many were dealt with. */
export function ProjectRanking() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ranking = useProjectRanking();
  const list = ranking.data ?? [];
  return (
    <Panel title={t('monitor.project.title')} className={styles.widget}>
      <DataState loading={ranking.isPending} error={ranking.isError} empty={list.length === 0} onRetry={() => void ranking.refetch()} minHeight={240}>
        <div className={styles.scroll}>
          <table className={table.table}>
            <thead>
              <tr>
                <th scope="col">{t('monitor.rank')}</th>
                <th scope="col">{t('monitor.project.name')}</th>
                <th scope="col" className={table.num}>
                  {t('monitor.project.faults')}
                </th>
                <th scope="col" className={table.num}>
                  {t('monitor.project.processed')}
                </th>
                <th scope="col" className={table.num}>
                  {t('monitor.project.ratio')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((station) => (
                <tr key={station.stationId}>
                  <td>
                    <Rank rank={station.rank} />
                  </td>
                  <td>
                    <button type="button" className={styles.link} onClick={() => navigate(`/station/detail/${station.stationId}`)}>
                      {station.name}
                    </button>
                  </td>
                  <td className={table.num}>{formatNumber(station.faultToday, 0)}</td>
                  <td className={table.num}>{formatNumber(station.faultProcessed, 0)}</td>
                  <td className={table.num}>{formatQuantity(station.faultProcessRatio, '%', { digits: 1 })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DataState>
    </Panel>
  );
}
