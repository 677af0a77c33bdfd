import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Pagination from '@arco-design/web-react/es/Pagination';
import '@arco-design/web-react/es/Pagination/style/css.js';
import Radio from '@arco-design/web-react/es/Radio';
import '@arco-design/web-react/es/Radio/style/css.js';
import { IconApps, IconList, IconPlus } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { ExportButtons } from '@/components/export-buttons';
import { PageHeader } from '@/components/panel';
import { Permission } from '@/components/permission';
import { exportStations, useStationList } from './api/stations';
import { useTags } from './api/tags';
import { StationFilterBar } from './station-filters';
import { StationCards, StationTable } from './station-list-views';
import styles from './station.module.css';
import { useStationFilters } from './use-station-filters';

/** The station list: search, filters, cards or table, paging and exports. */
export function StationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { filters, update } = useStationFilters();
  const { view, ...query } = filters;
  const list = useStationList(query);
  const tags = useTags();
  const { page: _page, pageSize: _size, sort, order, ...filterValues } = query;
  const open = (id: number) => navigate(`/station/detail/${id}`);
  const rows = list.data?.list ?? [];

  return (
    <>
      <PageHeader
        title={t('menu.station')}
        extra={
          <>
            <ExportButtons onExport={(format) => exportStations(format, { ...filterValues, sort, order })} />
            <Permission roles={['admin']}>
              <Button type="primary" icon={<IconPlus />} onClick={() => navigate('/station/add')}>
                {t('station.add')}
              </Button>
            </Permission>
          </>
        }
      />
      <StationFilterBar value={filterValues} tags={tags.data ?? []} onChange={update} />
      <div className={styles.toolbar}>
        <span className={styles.muted} aria-live="polite">
          {list.data ? t('station.total', { count: list.data.total }) : ''}
        </span>
        <div role="group" aria-label={t('station.view')}>
          <Radio.Group type="button" value={view} onChange={(next: 'card' | 'table') => update({ view: next, page: filters.page })}>
            <Radio value="card">
              <IconApps /> {t('station.view.card')}
            </Radio>
            <Radio value="table">
              <IconList /> {t('station.view.table')}
            </Radio>
          </Radio.Group>
        </div>
      </div>
      <DataState
        loading={list.isPending}
        error={list.isError && !list.data}
        empty={rows.length === 0}
        emptyText={t('station.empty')}
        onRetry={() => void list.refetch()}
        minHeight={320}
      >
        {view === 'table' ? (
          <StationTable
            list={rows}
            loading={list.isFetching && list.isPlaceholderData}
            onOpen={(station) => open(station.id)}
            sort={{ sort, order }}
            onSort={update}
          />
        ) : (
          <StationCards list={rows} onOpen={(station) => open(station.id)} />
        )}
      </DataState>
      {list.data && list.data.total > 0 && (
        <div className={styles.pagination}>
          <Pagination
            total={list.data.total}
            current={filters.page}
            pageSize={filters.pageSize}
            sizeCanChange
            sizeOptions={[10, 20, 50]}
            showTotal
            onChange={(page, pageSize) => update({ page, pageSize })}
          />
        </div>
      )}
    </>
  );
}
