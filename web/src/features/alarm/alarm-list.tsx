import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconRefresh } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons } from '@/components/export-buttons';
import type { FitColumn } from '@/components/list/fit-columns';
import { sortChange, sortable } from '@/components/list/list-sort';
import { ListTable, ListToolbar } from '@/components/list/list-table';
import { ZonedTime } from '@/components/zoned-time';
import { usePushStatus } from '@/lib/push';
import { useStationOptions } from '@/lib/stations';
import { useDurationText } from './alarm-detail';
import { AlarmFilterBar, type FilterValues } from './alarm-filters';
import { AlarmSummary } from './alarm-summary';
import { AlarmLevelTag, AlarmStatusTag, DealStatusText } from './alarm-tags';
import styles from './alarm.module.css';
import { type Alarm, type AlarmFilters, exportAlarms, useAlarmList } from './api/alarms';
import { DealDialog } from './deal-dialog';

interface AlarmListProps {
  filters: AlarmFilters;
  onFilters: (change: Partial<AlarmFilters>) => void;
  onReset: () => void;
  onOpen: (id: number) => void;
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

/** Today's figures, the filters, the alarm list with paging, and export (CSV, XLSX). */
export function AlarmList({ filters, onFilters, onReset, onOpen }: AlarmListProps) {
  const { t } = useTranslation();
  const list = useAlarmList(filters);
  const stations = useStationOptions();
  const duration = useDurationText();
  const [dealing, setDealing] = useState<Alarm | null>(null);
  const { page: _page, pageSize: _size, sort, order, ...values } = filters;
  const current = { sort, order };

  const columns: FitColumn<Alarm>[] = [
    sortable(
      {
        title: t('alarm.field.occurTime'),
        dataIndex: 'occurTime', phone: 'primary',
        width: 176,
        fixed: 'left',
        render: (value: string, alarm) => <ZonedTime value={value} timeZone={alarm.timezone} />,
      },
      'time',
      current,
    ),
    sortable(
      {
        title: t('alarm.field.level'),
        dataIndex: 'level', phone: 'primary',
        width: 110,
        render: (level: number) => <AlarmLevelTag level={level} />,
      },
      'level',
      current,
    ),
    {
      title: t('alarm.field.alarmStatus'),
      dataIndex: 'alarmStatus', phone: 'primary',
      width: 110,
      render: (status: number) => <AlarmStatusTag status={status} />,
    },
    {
      title: t('alarm.field.dealStatus'),
      dataIndex: 'dealStatus',
      width: 110,
      optional: 6,
      render: (status: number) => <DealStatusText status={status} label={t(`alarm.dealStatus.${status}`)} />,
    },
    {
      title: t('alarm.field.description'),
      dataIndex: 'description', phone: 'primary',
      width: 220,
      ellipsis: true,
      tooltip: true,
    },
    { title: t('alarm.field.station'), dataIndex: 'stationName', phone: 'primary', width: 160, ellipsis: true, tooltip: true },
    {
      title: t('alarm.field.device'),
      dataIndex: 'deviceName',
      width: 200,
      optional: 5,
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
      optional: 1,
      render: (type: string) => t(`alarm.deviceType.${type}`, { defaultValue: type }),
    },
    {
      title: t('alarm.field.type'),
      dataIndex: 'type',
      width: 110,
      optional: 2,
      render: (type: number) => t(`alarm.type.${type}`),
    },
    {
      title: t('alarm.field.recoveryTime'),
      dataIndex: 'recoveryTime',
      width: 176,
      optional: 3,
      render: (value: string | null, alarm) => <ZonedTime value={value} timeZone={alarm.timezone} />,
    },
    sortable(
      {
        title: t('alarm.field.duration'),
        dataIndex: 'durationMin',
        // the header and its sort arrows on one line
        width: 120,
        optional: 4,
        render: (value: number) => duration(value),
      },
      'duration',
      current,
    ),
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

  return (
    <>
      <AlarmSummary stationId={filters.stationId} />
      <AlarmFilterBar
        value={values as FilterValues}
        stations={stations.data ?? []}
        onChange={onFilters}
        onReset={onReset}
      />
      <ListToolbar note={`${list.data ? t('alarm.total', { total: list.data.total }) : ''} ${t('alarm.stationTime')}`}>
        <LiveState />
        <Button
          icon={<IconRefresh />}
          aria-label={t('alarm.refresh')}
          title={t('alarm.refresh')}
          loading={list.isFetching && !list.isPending}
          onClick={() => void list.refetch()}
        />
        <ExportButtons onExport={(format) => exportAlarms(format, filters)} />
      </ListToolbar>
      <ListTable
        label={t('alarm.tab.list')}
        query={list}
        columns={columns}
        page={filters.page}
        pageSize={filters.pageSize}
        onPage={(page, pageSize) => onFilters({ page, pageSize })}
        onSort={(sorter) => onFilters(sortChange(sorter))}
        emptyText={t('alarm.empty')}
      />
      {dealing && <DealDialog alarm={dealing} visible onClose={() => setDealing(null)} />}
    </>
  );
}
