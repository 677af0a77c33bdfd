import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { PlainTable } from '@/components/plain-table';
import table from '@/components/plain-table.module.css';
import { formatNumber, formatQuantity } from '@/lib/format';
import { TOP_DEVICES, useMaintenanceRanking, useProjectRanking, useTopDevices } from './api/rankings';
import styles from './monitor.module.css';

function Rank({ rank }: { rank: number }) {
  return <span className={`${styles.rank} ${rank <= 3 ? styles.rankTop : ''}`}>{rank}</span>;
}

interface Column<T> {
  header: string;
  /** A figure: right-aligned. */
  num?: boolean;
  cell: (row: T) => ReactNode;
}

/** A ranking: the rank, then the columns, one row per entry. */
function RankTable<T extends { rank: number }>({
  rows,
  rowKey,
  columns,
}: {
  rows: readonly T[];
  rowKey: (row: T) => number;
  columns: Column<T>[];
}) {
  const { t } = useTranslation();
  return (
    <div className={styles.scroll}>
      <PlainTable>
        <thead>
          <tr>
            <th scope="col">{t('monitor.rank')}</th>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.num ? table.num : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              <td>
                <Rank rank={row.rank} />
              </td>
              {columns.map((column) => (
                <td key={column.header} className={column.num ? table.num : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </PlainTable>
    </div>
  );
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
        <RankTable
          rows={list}
          rowKey={(device) => device.id}
          columns={[
            {
              header: t('monitor.top.device'),
              cell: (device) => (
                <>
                  <button type="button" className={styles.link} onClick={() => navigate(`/device/detail/${device.id}`)}>
                    {device.name}
                  </button>
                  <div className={styles.muted}>{device.stationName}</div>
                </>
              ),
            },
            { header: t('monitor.top.today'), num: true, cell: (device) => formatQuantity(device.todayKwh, 'kWh', { digits: 1 }) },
            { header: t('monitor.top.hours'), num: true, cell: (device) => formatQuantity(device.equivalentHours, 'h', { digits: 2 }) },
          ]}
        />
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
        <RankTable
          rows={list}
          rowKey={(user) => user.userId}
          columns={[
            { header: t('monitor.maintenance.name'), cell: (user) => user.name },
            { header: t('monitor.maintenance.finished'), num: true, cell: (user) => formatNumber(user.finishCount, 0) },
          ]}
        />
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
        <RankTable
          rows={list}
          rowKey={(station) => station.stationId}
          columns={[
            {
              header: t('monitor.project.name'),
              cell: (station) => (
                <button type="button" className={styles.link} onClick={() => navigate(`/station/detail/${station.stationId}`)}>
                  {station.name}
                </button>
              ),
            },
            { header: t('monitor.project.faults'), num: true, cell: (station) => formatNumber(station.faultToday, 0) },
            { header: t('monitor.project.processed'), num: true, cell: (station) => formatNumber(station.faultProcess, 0) },
            { header: t('monitor.project.ratio'), num: true, cell: (station) => formatQuantity(station.faultProcessRatio, '%', { digits: 1 }) },
          ]}
        />
      </DataState>
    </Panel>
  );
}
