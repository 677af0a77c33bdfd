import Table from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Table/style/css.js';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Tag/style/css.js';
import { IconImage } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { type FitColumn, useFitColumns } from '@/components/list/fit-columns';
import { ListCards } from '@/components/list/list-cards';
import { type ListSort, sortChange, sortable } from '@/components/list/list-sort';
import type { TableChange } from '@/components/list/list-table';
import { StatusTag } from '@/components/status-tag';
import { ZonedTime } from '@/components/zoned-time';
import { API_BASE } from '@/lib/env';
import { formatQuantity } from '@/lib/format';
import { usePhone } from '@/lib/use-phone';
import type { StationItem, Tag as StationTag } from './api/types';
import styles from './station.module.css';

interface ViewProps {
  list: StationItem[];
  loading?: boolean;
  onOpen: (station: StationItem) => void;
}

export function coverUrl(path: string): string {
  return path ? `${API_BASE}${path}` : '';
}

export function TagList({ tags }: { tags: readonly StationTag[] }) {
  if (tags.length === 0) {
    return null;
  }
  return (
    <span className={styles.tags}>
      {tags.map((tag) => (
        <Tag key={tag.id} size="small" color={tag.color}>
          {tag.name}
        </Tag>
      ))}
    </span>
  );
}

/** Stations as cards: cover, status, figures of today, tags. */
export function StationCards({ list, onOpen }: ViewProps) {
  const { t } = useTranslation();
  return (
    <ul className={styles.cards} aria-label={t('station.list')}>
      {list.map((station) => (
        <li key={station.id} className={styles.card}>
          <div className={styles.cover}>
            {station.coverImage ? (
              <img src={coverUrl(station.coverImage)} alt="" loading="lazy" />
            ) : (
              <span className={styles.coverPlaceholder}>
                <IconImage aria-hidden />
              </span>
            )}
          </div>
          <div className={styles.cardBody}>
            <h3 className={styles.cardTitle}>
              <button type="button" className={styles.titleLink} onClick={() => onOpen(station)}>
                {station.name}
              </button>
            </h3>
            <div className={styles.statusRow}>
              <StatusTag category="communicationStatus" value={station.communicationStatus} dot />
              <StatusTag category="alarmExist" value={station.alarmExist} dot />
            </div>
            <dl className={styles.stats}>
              <div>
                <dt>{t('station.field.capacityKwp')}</dt>
                <dd>{formatQuantity(station.capacityKwp, 'kWp')}</dd>
              </div>
              <div>
                <dt>{t('station.live.currentPower')}</dt>
                <dd>{formatQuantity(station.currentPowerKw, 'kW')}</dd>
              </div>
              <div>
                <dt>{t('station.live.dailyEnergy')}</dt>
                <dd>{formatQuantity(station.dailyEnergyKwh, 'kWh')}</dd>
              </div>
              <div>
                <dt>{t('station.live.equivalentHours')}</dt>
                <dd>{formatQuantity(station.dailyEquivalentHours, 'h')}</dd>
              </div>
            </dl>
            <TagList tags={station.tags} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Stations as a table with every live figure. */
export function StationTable({ list, loading, onOpen, sort, onSort }: ViewProps & { sort: ListSort; onSort: (change: ReturnType<typeof sortChange>) => void }) {
  const { t } = useTranslation();
  const columns: FitColumn<StationItem>[] = [
    {
      title: t('station.field.name'),
      dataIndex: 'name',
      fixed: 'left',
      width: 200,
      render: (_, station) => (
        <button type="button" className={styles.titleLink} onClick={() => onOpen(station)}>
          {station.name}
        </button>
      ),
    },
    {
      title: t('station.field.communicationStatus'),
      dataIndex: 'communicationStatus',
      width: 130,
      render: (value: number) => <StatusTag category="communicationStatus" value={value} appearance="filled" />,
    },
    sortable(
      {
        title: t('station.field.alarmStatus'),
        dataIndex: 'alarmExist',
        width: 130,
        render: (value: number) => <StatusTag category="alarmExist" value={value} appearance="filled" />,
      },
      'alarmExist',
      sort,
    ),
    {
      title: t('station.field.capacityKwp'),
      dataIndex: 'capacityKwp',
      width: 120,
      align: 'right',
      render: (value: number) => formatQuantity(value, 'kWp'),
    },
    sortable(
      {
        title: t('station.live.currentPower'),
        dataIndex: 'currentPowerKw',
        width: 150,
        align: 'right',
        render: (value: number) => formatQuantity(value, 'kW'),
      },
      'currentPowerKw',
      sort,
    ),
    {
      title: t('station.live.normalization'),
      dataIndex: 'powerNormalization',
      width: 120, optional: 3,
      align: 'right',
      render: (value: number) => formatQuantity(value, '%', { digits: 1 }),
    },
    sortable(
      {
        title: t('station.live.dailyEnergy'),
        dataIndex: 'dailyEnergyKwh',
        width: 150,
        align: 'right',
        render: (value: number) => formatQuantity(value, 'kWh'),
      },
      'dailyEnergyKwh',
      sort,
    ),
    sortable(
      {
        title: t('station.live.equivalentHours'),
        dataIndex: 'dailyEquivalentHours',
        width: 150, optional: 4,
        align: 'right',
        render: (value: number) => formatQuantity(value, 'h'),
      },
      'dailyEquivalentHours',
      sort,
    ),
    sortable(
      {
        title: t('station.kpi.performanceRatio'),
        dataIndex: 'performanceRatio',
        width: 150, optional: 4,
        align: 'right',
        render: (value: number) => formatQuantity(value, '%', { digits: 1 }),
      },
      'performanceRatio',
      sort,
    ),
    {
      title: t('station.field.stationType'),
      dataIndex: 'stationType',
      width: 110, optional: 2,
      render: (value: string) => t(`station.stationType.${value}`),
    },
    { title: t('station.field.tags'), dataIndex: 'tags', width: 200, optional: 1, render: (tags: StationTag[]) => <TagList tags={tags} /> },
    {
      title: t('station.live.latestAlarm'),
      dataIndex: 'latestAlarm',
      width: 200, optional: 5,
      ellipsis: true,
      render: (value: string) => value || <span className={styles.muted}>-</span>,
    },
    {
      title: t('station.live.lastSeen'),
      dataIndex: 'lastSeen',
      width: 200, optional: 6,
      render: (value: string | null, station) => <ZonedTime value={value} timeZone={station.timezone} />,
    },
  ];
  const fit = useFitColumns(columns);
  const phone = usePhone();
  if (phone) {
    // a phone gets the table's rows as cards, as every list does (list-cards.tsx)
    return <ListCards label={t('station.list')} rows={list} columns={columns} rowKey="id" onSort={(sorter) => onSort(sortChange(sorter))} />;
  }
  return (
    <div ref={fit.ref}>
      <Table
        rowKey="id"
        columns={fit.columns}
        data={list}
        loading={loading}
        pagination={false}
        scroll={fit.scroll}
        expandedRowRender={fit.expandedRowRender}
        expandProps={fit.expandProps}
        border={false}
        onChange={(...args: TableChange) => args[3].action === 'sort' && onSort(sortChange(args[1]))}
        aria-label={t('station.list')}
      />
    </div>
  );
}
