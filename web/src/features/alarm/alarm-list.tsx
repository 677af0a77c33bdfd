import Button from '@arco-design/web-react/es/Button';
import Pagination from '@arco-design/web-react/es/Pagination';
import Table, { type ColumnProps } from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Pagination/style/css.js';
import '@arco-design/web-react/es/Table/style/css.js';
import { IconDownload, IconRefresh } from '@arco-design/web-react/icon';
import { type TableHTMLAttributes, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { notifySuccess } from '@/lib/notify';
import { usePushStatus } from '@/lib/push';
import { useStationOptions } from '@/lib/stations';
import { useDurationText } from './alarm-detail';
import { AlarmFilterBar, type FilterValues } from './alarm-filters';
import { AlarmSummary } from './alarm-summary';
import { AlarmLevelTag, AlarmStatusTag, DealStatusText } from './alarm-tags';
import styles from './alarm.module.css';
import { type Alarm, type AlarmFilters, exportAlarms, useAlarmList } from './api/alarms';
import { DealDialog } from './deal-dialog';
import { formatInZone } from './format-time';

interface AlarmListProps {
  filters: AlarmFilters;
  onFilters: (change: Partial<AlarmFilters>) => void;
  onReset: () => void;
  onOpen: (id: number) => void;
}

function ExportButton({ filters }: { filters: AlarmFilters }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const name = await exportAlarms(filters);
      notifySuccess(t('alarm.exported', { name }));
    } catch {
      // the request layer already said why
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<IconDownload />} loading={busy} onClick={() => void run()}>
      {t('alarm.export')}
    </Button>
  );
}

function LiveState() {
  const { t } = useTranslation();
  const status = usePushStatus();
  return (
    <span className={styles.live} data-status={status} role="status">
      <span className={styles.liveDot} aria-hidden />
      {t(`alarm.live.${status}`)}
    </span>
  );
}

/** Today's figures, the filters, the alarm list with paging, and export. */
export function AlarmList({ filters, onFilters, onReset, onOpen }: AlarmListProps) {
  const { t } = useTranslation();
  const list = useAlarmList(filters);
  const stations = useStationOptions();
  const duration = useDurationText();
  const [dealing, setDealing] = useState<Alarm | null>(null);
  const { page: _page, pageSize: _size, ...values } = filters;

  const columns: ColumnProps<Alarm>[] = [
    {
      title: t('alarm.field.occurTime'),
      dataIndex: 'occurTime',
      width: 170,
      fixed: 'left',
      render: (value: string, alarm) => formatInZone(value, alarm.timezone),
    },
    {
      title: t('alarm.field.level'),
      dataIndex: 'level',
      width: 110,
      render: (level: number) => <AlarmLevelTag level={level} />,
    },
    {
      title: t('alarm.field.alarmStatus'),
      dataIndex: 'alarmStatus',
      width: 110,
      render: (status: number) => <AlarmStatusTag status={status} />,
    },
    {
      title: t('alarm.field.dealStatus'),
      dataIndex: 'dealStatus',
      width: 110,
      render: (status: number) => <DealStatusText status={status} label={t(`alarm.dealStatus.${status}`)} />,
    },
    {
      title: t('alarm.field.description'),
      dataIndex: 'description',
      width: 260,
      ellipsis: true,
      tooltip: true,
    },
    { title: t('alarm.field.station'), dataIndex: 'stationName', width: 200, ellipsis: true, tooltip: true },
    {
      title: t('alarm.field.device'),
      dataIndex: 'deviceName',
      width: 200,
      render: (name: string, alarm) => (
        <span className={styles.device}>
          <span>{name}</span>
          <span className={styles.muted}>{alarm.deviceSn}</span>
        </span>
      ),
    },
    {
      title: t('alarm.field.deviceType'),
      dataIndex: 'deviceType',
      width: 120,
      render: (type: string) => t(`alarm.deviceType.${type}`, { defaultValue: type }),
    },
    {
      title: t('alarm.field.type'),
      dataIndex: 'type',
      width: 110,
      render: (type: number) => t(`alarm.type.${type}`),
    },
    {
      title: t('alarm.field.recoveryTime'),
      dataIndex: 'recoveryTime',
      width: 170,
      render: (value: string | null, alarm) => (value ? formatInZone(value, alarm.timezone) : '-'),
    },
    {
      title: t('alarm.field.duration'),
      dataIndex: 'durationMin',
      width: 110,
      render: (value: number) => duration(value),
    },
    {
      title: t('alarm.field.actions'),
      dataIndex: 'id',
      width: 150,
      fixed: 'right',
      render: (id: number, alarm) => (
        <span className={styles.actions}>
          <Button type="text" size="mini" onClick={() => onOpen(id)} aria-label={t('alarm.action.detailsOf', { id })}>
            {t('alarm.action.details')}
          </Button>
          {alarm.dealStatus === 0 && (
            <Button type="text" size="mini" onClick={() => setDealing(alarm)} aria-label={t('alarm.action.dealOf', { id })}>
              {t('alarm.action.deal')}
            </Button>
          )}
        </span>
      ),
    },
  ];

  const rows = list.data?.list ?? [];
  const tableName = t('alarm.tab.list');
  // Arco's table takes no aria-label; its table element does.
  const tableComponents = useMemo(
    () => ({ table: (props: TableHTMLAttributes<HTMLTableElement>) => <table {...props} aria-label={tableName} /> }),
    [tableName],
  );
  return (
    <>
      <AlarmSummary stationId={filters.stationId} />
      <AlarmFilterBar
        value={values as FilterValues}
        stations={stations.data ?? []}
        onChange={onFilters}
        onReset={onReset}
      />
      <div className={styles.toolbar}>
        <span className={styles.muted}>
          {list.data ? t('alarm.total', { total: list.data.total }) : ''} {t('alarm.stationTime')}
        </span>
        <span className={styles.toolbarActions}>
          <LiveState />
          <Button
            icon={<IconRefresh />}
            aria-label={t('alarm.refresh')}
            title={t('alarm.refresh')}
            loading={list.isFetching && !list.isPending}
            onClick={() => void list.refetch()}
          />
          <ExportButton filters={filters} />
        </span>
      </div>
      <DataState
        loading={list.isPending}
        error={list.isError && !list.data}
        empty={rows.length === 0}
        emptyText={t('alarm.empty')}
        onRetry={() => void list.refetch()}
        minHeight={280}
      >
        <Table
          rowKey="id"
          columns={columns}
          data={rows}
          pagination={false}
          scroll={{ x: 1900 }}
          border={false}
          components={tableComponents}
        />
      </DataState>
      {list.data && list.data.total > 0 && (
        <div className={styles.pagination}>
          <Pagination
            total={list.data.total}
            current={filters.page}
            pageSize={filters.pageSize}
            sizeCanChange
            sizeOptions={[10, 20, 50, 100]}
            showTotal
            onChange={(page, pageSize) => onFilters({ page, pageSize })}
          />
        </div>
      )}
      {dealing && <DealDialog alarm={dealing} visible onClose={() => setDealing(null)} />}
    </>
  );
}
