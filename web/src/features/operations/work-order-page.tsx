import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconPlus, IconRefresh } from '@arco-design/web-react/icon';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { ExportButtons } from '@/components/export-buttons';
import type { FitColumn } from '@/components/list/fit-columns';
import { sortChange, sortable } from '@/components/list/list-sort';
import { ListTable, ListToolbar } from '@/components/list/list-table';
import { useListFilters } from '@/components/list/use-list-filters';
import { PageHeader } from '@/components/panel';
import { ZonedTime } from '@/components/zoned-time';
import { formatNumber } from '@/lib/format';
import { preloadable } from '@/lib/preloadable';
import {
  exportWorkOrders,
  FILTER_KEYS,
  liveTimeout,
  parseWorkOrderFilters,
  useWorkOrderList,
  type WorkOrder,
} from './api/work-orders';
import { QueueBar } from './offline/queue-bar';
import styles from './operations.module.css';
import { opsTexts } from './texts';
import { useNow } from './use-now';
import { useWorkOrderPush } from './use-work-order-push';
import { WorkOrderFilterBar } from './work-order-filters';
import { WorkOrderSummary } from './work-order-summary';
import { PriorityTag, TimeoutTag, WorkOrderStatusTag } from './work-order-tags';

// An order's detail and the new-order form are loaded when first opened, not with the list a
// phone draws first (docs/perf-phone.md); once the list is in they are fetched while idle, so a
// tap opens at once (and offline: the service worker keeps every file of the console).
const WorkOrderDrawer = preloadable(async () => (await import('./work-order-drawer')).WorkOrderDrawer);
const WorkOrderForm = preloadable(async () => (await import('./work-order-form')).WorkOrderForm);

/** Whether a lazily loaded part was ever wanted: mounted from then on, so closing it animates. */
function useOnceWanted(wanted: boolean): boolean {
  const [once, setOnce] = useState(wanted);
  useEffect(() => {
    if (wanted) setOnce(true);
  }, [wanted]);
  return once || wanted;
}

/** Starts loading the screen's texts as soon as the page's code arrives. */
export function prefetch(): void {
  void opsTexts.ready().catch(() => undefined);
}

function positive(value: string | null): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Work orders: totals, filters (kept in the address), the list with live timeouts, export, the
 * detail drawer (?detail=id) with its transitions, and the form (?new=1, &alarmId= from an alarm).
 */
export function WorkOrderPage() {
  const { t } = useTranslation();
  const ready = opsTexts.useReady();
  const { params, setParams, filters, update, reset } = useListFilters(parseWorkOrderFilters, FILTER_KEYS);
  const list = useWorkOrderList(filters);
  const now = useNow();
  useWorkOrderPush();
  const detailId = positive(params.get('detail'));
  const creating = params.get('new') === '1';
  const alarmId = positive(params.get('alarmId'));
  const drawerWanted = useOnceWanted(detailId !== undefined);
  const formWanted = useOnceWanted(creating);
  const listed = list.data !== undefined;
  useEffect(() => {
    if (!listed) return undefined;
    const timer = window.setTimeout(() => {
      void WorkOrderDrawer.preload().catch(() => undefined);
      void WorkOrderForm.preload().catch(() => undefined);
    }, 1500);
    return () => window.clearTimeout(timer);
  }, [listed]);

  const change = useCallback(
    (edit: (next: URLSearchParams) => void) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        edit(next);
        return next;
      }),
    [setParams],
  );
  const open = (id: number) => change((next) => next.set('detail', String(id)));
  const current = { sort: filters.sort, order: filters.order };

  const columns: FitColumn<WorkOrder>[] = [
    {
      title: t('ops.wo.field.title'),
      dataIndex: 'title',
      phone: 'primary',
      fixed: 'left',
      width: 200,
      render: (_: string, order) => (
        <span className={styles.stack}>
          <button type="button" className={styles.link} onClick={() => open(order.id)}>
            {order.title}
          </button>
          <span className={styles.muted}>{order.number}</span>
        </span>
      ),
    },
    sortable(
      { title: t('ops.wo.field.status'), dataIndex: 'status', phone: 'primary', width: 120, render: (s: number) => <WorkOrderStatusTag status={s} /> },
      'status',
      current,
    ),
    {
      title: t('ops.wo.field.timeout'),
      dataIndex: 'timeoutStatus',
      width: 110, optional: 4,
      render: (_: number, order) => <TimeoutTag timeout={liveTimeout(order, now).timeout} />,
    },
    sortable(
      { title: t('ops.wo.field.priority'), dataIndex: 'priority', phone: 'primary', width: 110, render: (p: number) => <PriorityTag priority={p} /> },
      'priority',
      current,
    ),
    {
      title: t('ops.wo.field.overtime'),
      dataIndex: 'overtimeHours',
      width: 110, optional: 1,
      align: 'right',
      render: (_: number, order) => {
        const h = liveTimeout(order, now).overtimeHours;
        return h > 0 ? <span className={styles.late}>{t('ops.wo.hours', { hours: formatNumber(h, 1) })}</span> : '-';
      },
    },
    { title: t('ops.wo.field.station'), dataIndex: 'stationName', phone: 'primary', width: 160, ellipsis: true, tooltip: true },
    { title: t('ops.wo.field.submitTime'), dataIndex: 'submitTime', width: 200, optional: 6, render: (v: string, order) => <ZonedTime value={v} timeZone={order.timezone} /> },
    { title: t('ops.wo.field.submitter'), dataIndex: 'submitter', width: 120, optional: 5 },
    {
      title: t('ops.wo.field.processor'),
      dataIndex: 'processor',
      width: 140, optional: 7,
      render: (_: string, order) => order.processor || order.assigneeDept || '-',
    },
    sortable(
      { title: t('ops.wo.field.plannedEnd'), dataIndex: 'plannedEnd', width: 200, render: (v: string, order) => <ZonedTime value={v} timeZone={order.timezone} /> },
      'due',
      current,
    ),
    {
      title: t('ops.wo.field.hours'),
      dataIndex: 'plannedHours',
      width: 150, optional: 3,
      align: 'right',
      render: (_: number, order) => `${formatNumber(order.actualHours, 1)} / ${formatNumber(order.plannedHours, 1)}`,
    },
    {
      title: t('ops.wo.field.deviation'),
      dataIndex: 'deviationPercent',
      width: 110, optional: 2,
      align: 'right',
      render: (v: number, order) => (order.actualStart ? `${formatNumber(v, 1)}%` : '-'),
    },
    {
      title: t('common.actions'),
      dataIndex: 'id',
      width: 90,
      fixed: 'right',
      render: (id: number, order) => (
        <Button type="text" size="mini" onClick={() => open(id)} aria-label={t('ops.wo.openNamed', { number: order.number })}>
          {t('ops.wo.open')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('menu.operations.workorder')}
        extra={
          ready && (
            <>
              <ExportButtons onExport={(format) => exportWorkOrders(format, filters)} />
              <Button type="primary" icon={<IconPlus />} onClick={() => change((next) => next.set('new', '1'))}>
                {t('ops.wo.new')}
              </Button>
            </>
          )
        }
      />
      {!ready ? (
        <DataState loading minHeight={320} />
      ) : (
        <div className={styles.page}>
          <QueueBar />
          <WorkOrderSummary filters={filters} />
          <WorkOrderFilterBar value={filters} onChange={update} onReset={reset} />
          <ListToolbar note={list.data ? t('ops.wo.total', { total: list.data.total }) : ''}>
            <Button
              icon={<IconRefresh />}
              aria-label={t('ops.wo.refresh')}
              title={t('ops.wo.refresh')}
              loading={list.isFetching && !list.isPending}
              onClick={() => void list.refetch()}
            />
          </ListToolbar>
          <ListTable
            label={t('ops.wo.list')}
            query={list}
            columns={columns}
            page={filters.page}
            pageSize={filters.pageSize}
            onPage={(page, pageSize) => update({ page, pageSize })}
            onSort={(sorter) => update(sortChange(sorter))}
            emptyText={t('ops.wo.empty')}
          />
          {/* a boundary each: the form's code arriving never hides an open drawer, nor the other way */}
          <Suspense fallback={null}>
            {drawerWanted && <WorkOrderDrawer id={detailId} now={now} onClose={() => change((next) => next.delete('detail'))} />}
          </Suspense>
          <Suspense fallback={null}>
            {formWanted && (
              <WorkOrderForm
                visible={creating}
                alarmId={alarmId}
                onClose={(id) =>
                  change((next) => {
                    next.delete('new');
                    next.delete('alarmId');
                    if (id) {
                      next.set('detail', String(id));
                    }
                  })
                }
              />
            )}
          </Suspense>
        </div>
      )}
    </>
  );
}
