import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Pagination from '@arco-design/web-react/es/Pagination';
import '@arco-design/web-react/es/Pagination/style/css.js';
import Table from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Table/style/css.js';
import { IconPlus } from '@arco-design/web-react/icon';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { ExportButtons } from '@/components/export-buttons';
import { type FitColumn, useFitColumns } from '@/components/list/fit-columns';
import { ListCards } from '@/components/list/list-cards';
import { parseListSort, sortChange, sortable } from '@/components/list/list-sort';
import type { TableChange } from '@/components/list/list-table';
import { PageHeader } from '@/components/panel';
import { StatusTag } from '@/components/status-tag';
import { ZonedTime } from '@/components/zoned-time';
import { formatQuantity } from '@/lib/format';
import { useStationOptions, useStationZones } from '@/lib/stations';
import { usePhone } from '@/lib/use-phone';
import { useQueryParams } from '@/lib/use-query-params';
import { DEVICE_SORTS, type DeviceFilters, type DeviceItem, exportDevices, useDeviceList } from './api/devices';
import { DeviceFilterBar, type DeviceFilterValues } from './device-filters';
import { DeviceSummaryCards, InverterOverview } from './device-summary';
import styles from './device.module.css';

/** Reads the device list's filters and page from the address. */
export function parseDeviceFilters(params: URLSearchParams): DeviceFilters {
  const number = (key: string) => {
    const value = Number(params.get(key));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  return {
    stationId: number('stationId'),
    type: params.get('type') || undefined,
    state: params.get('state') || undefined,
    name: params.get('name') || undefined,
    ...parseListSort(params, DEVICE_SORTS),
    page: number('page') ?? 1,
    pageSize: number('pageSize') ?? 10,
  };
}

/** Devices: summary by type and state, inverter overview, the filtered list and exports. */
export function DevicePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useQueryParams();
  const filters = useMemo(() => parseDeviceFilters(params), [params]);
  const list = useDeviceList(filters);
  const stations = useStationOptions();
  const zones = useStationZones();
  const { page: _page, pageSize: _size, sort, order, ...values } = filters;
  const current = { sort, order };

  const update = useCallback(
    (change: Partial<DeviceFilters>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(change)) {
            if (value === undefined || value === '' || value === null) {
              next.delete(key);
            } else {
              next.set(key, String(value));
            }
          }
          if (!('page' in change)) {
            next.delete('page');
          }
          return next;
        },
      );
    },
    [setParams],
  );

  const columns: FitColumn<DeviceItem>[] = [
    {
      title: t('device.field.name'),
      dataIndex: 'name',
      fixed: 'left',
      width: 160,
      phone: 'primary',
      render: (_, device) => (
        <button type="button" className={styles.link} onClick={() => navigate(`/device/detail/${device.id}`)}>
          {device.name}
        </button>
      ),
    },
    { title: t('device.field.sn'), dataIndex: 'sn', width: 170, optional: 3 },
    { title: t('device.field.type'), dataIndex: 'type', width: 100, render: (type: string) => t(`device.type.${type}`) },
    { title: t('device.field.station'), dataIndex: 'stationName', phone: 'primary', width: 200, ellipsis: true, tooltip: true },
    {
      title: t('device.field.state'),
      dataIndex: 'state',
      width: 110,
      phone: 'primary',
      render: (state: string) => <StatusTag category="deviceState" value={state} appearance="filled" />,
    },
    sortable(
      {
        title: t('device.live.power'),
        dataIndex: 'currentPowerKw',
        phone: 'primary',
        // the header and its sort arrows on one line
        width: 160,
        align: 'right',
        render: (value: number) => formatQuantity(value, 'kW'),
      },
      'currentPowerKw',
      current,
    ),
    sortable(
      {
        title: t('device.live.today'),
        dataIndex: 'todayKwh',
        width: 130,
        align: 'right',
        render: (value: number) => formatQuantity(value, 'kWh'),
      },
      'todayKwh',
      current,
    ),
    sortable(
      {
        title: <span title={t('device.live.specificYieldHint')}>{t('device.live.specificYield')}</span>,
        dataIndex: 'specificYield',
        width: 140,
        optional: 5,
        align: 'right',
        render: (value: number | null) => (value === null ? '-' : formatQuantity(value, 'kWh/kWp', { digits: 2 })),
      },
      'specificYield',
      // equivalentHours is the same quotient: either key lights this column
      current.sort === 'equivalentHours' ? { ...current, sort: 'specificYield' } : current,
    ),
    sortable(
      {
        title: t('device.live.total'),
        dataIndex: 'totalKwh',
        width: 150,
        optional: 4,
        align: 'right',
        render: (value: number) => formatQuantity(value, 'kWh', { scale: true }),
      },
      'totalKwh',
      current,
    ),
    {
      title: t('device.live.soc'),
      dataIndex: 'soc',
      width: 90, optional: 1,
      align: 'right',
      render: (value: number, device) => (device.type === 'battery' || device.type === 'storage' ? formatQuantity(value, '%', { digits: 1 }) : '-'),
    },
    {
      title: t('device.live.lastSeen'),
      dataIndex: 'lastSeen',
      width: 170, optional: 2,
      render: (value: string | null, device) => <ZonedTime value={value} timeZone={zones.get(device.stationId)} />,
    },
    {
      title: t('common.actions'),
      dataIndex: 'id',
      width: 90,
      fixed: 'right',
      render: (id: number, device) => (
        <Button type="text" size="mini" onClick={() => navigate(`/device/edit/${id}`)} aria-label={t('device.editNamed', { name: device.name })}>
          {t('common.edit')}
        </Button>
      ),
    },
  ];

  const rows = list.data?.list ?? [];
  const fit = useFitColumns(columns);
  const phone = usePhone();
  return (
    <>
      <PageHeader
        title={t('menu.device')}
        extra={
          <>
            <ExportButtons onExport={(format) => exportDevices(format, { ...values, ...current })} />
            <Button
              type="primary"
              icon={<IconPlus />}
              onClick={() => navigate(filters.stationId ? `/device/add?stationId=${filters.stationId}` : '/device/add')}
            >
              {t('device.add')}
            </Button>
          </>
        }
      />
      <DeviceSummaryCards />
      <InverterOverview />
      <DeviceFilterBar value={values as DeviceFilterValues} stations={stations.data ?? []} onChange={update} />
      <div ref={fit.ref}>
      <DataState
        loading={list.isPending}
        error={list.isError && !list.data}
        empty={rows.length === 0}
        emptyText={t('device.empty')}
        onRetry={() => void list.refetch()}
        minHeight={280}
      >
        {phone ? (
          <ListCards
            label={t('device.list')}
            rows={rows}
            columns={columns}
            rowKey="id"
            onSort={(sorter) => update(sortChange(sorter))}
          />
        ) : (
          <Table
            rowKey="id"
            columns={fit.columns}
            data={rows}
            pagination={false}
            scroll={fit.scroll}
            expandedRowRender={fit.expandedRowRender}
            expandProps={fit.expandProps}
            border={false}
            onChange={(...args: TableChange) => args[3].action === 'sort' && update(sortChange(args[1]))}
            loading={list.isFetching && list.isPlaceholderData}
            aria-label={t('device.list')}
          />
        )}
      </DataState>
      </div>
      {list.data && list.data.total > 0 && (
        <div className={styles.pagination}>
          <Pagination
            total={list.data.total}
            current={filters.page}
            pageSize={filters.pageSize}
            sizeCanChange={!phone}
            simple={phone}
            // the simple pager's page box has no name: the page shows as text between the arrows
            showJumper={false}
            sizeOptions={[10, 20, 50]}
            showTotal={!phone}
            onChange={(page, pageSize) => update({ page, pageSize })}
          />
        </div>
      )}
    </>
  );
}
