import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Drawer/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { Facts } from '@/components/facts';
import { ZonedTime } from '@/components/zoned-time';
import { formatNumber, zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { ActionDialog } from './action-dialog';
import {
  checklistTemplatesQuery,
  knownActions,
  liveTimeout,
  useWorkOrderDetail,
  type WorkOrderAction,
  type WorkOrderDetail,
} from './api/work-orders';
import { withQueued } from './offline/optimistic';
import { useOfflineQueue } from './offline/queue';
import { QueueBar } from './offline/queue-bar';
import styles from './operations.module.css';
import { Assign, Attachments, Comments } from './order-extras';
import { SitePanel } from './site-panel';
import { PriorityTag, TimeoutTag, WorkOrderStatusTag } from './work-order-tags';

function DetailBody({ order, now, onAction }: { order: WorkOrderDetail; now: number; onAction: (a: WorkOrderAction) => void }) {
  const { t } = useTranslation();
  const live = liveTimeout(order, now);
  const hours = (h: number) => t('ops.wo.hours', { hours: formatNumber(h, 1) });
  return (
    <>
      <div className={styles.head}>
        <WorkOrderStatusTag status={order.status} />
        <PriorityTag priority={order.priority} />
        <TimeoutTag timeout={live.timeout} />
        <span className={styles.muted}>{order.number}</span>
      </div>
      <h2 style={{ margin: '4px 0', fontSize: 18 }}>{order.title}</h2>
      {order.description && <p className={styles.body}>{order.description}</p>}
      {order.alarmId > 0 && order.alarmStatus === 2 && order.status <= 3 && (
        <Alert
          className={styles.notice}
          type="success"
          content={t('ops.wo.alarmRecovered', { time: zonedTime(order.alarmRecoveredAt, order.timezone, currentLocale()).text })}
          action={
            order.actions.includes('close') ? (
              <Button size="mini" type="primary" onClick={() => onAction('close')}>
                {t('ops.wo.action.close')}
              </Button>
            ) : undefined
          }
        />
      )}
      {order.alarmId > 0 && order.alarmStatus === 1 && (
        <Alert className={styles.notice} type="warning" content={t('ops.wo.alarmOccurring')} />
      )}
      <div className={styles.actions} role="group" aria-label={t('ops.wo.actions')}>
        {knownActions(order.actions)
          .filter((a) => a !== 'close')
          .map((a) => (
            <Button key={a} type={a === 'reject' ? 'secondary' : 'primary'} status={a === 'reject' ? 'danger' : undefined} onClick={() => onAction(a)}>
              {t(`ops.wo.action.${a}`)}
            </Button>
          ))}
        {order.actions.length === 0 && <span className={styles.muted}>{t('ops.wo.noActions')}</span>}
      </div>
      {order.canAssign && <Assign order={order} />}
      <h3 className={styles.subTitle}>{t('ops.wo.facts')}</h3>
      <Facts
        items={[
          [t('ops.wo.field.station'), order.stationName],
          ...(order.alarmId > 0
            ? ([
                [
                  t('ops.wo.field.alarm'),
                  <Link key="alarm" to={`/alarm?detail=${order.alarmId}`}>
                    {t('ops.wo.alarmOf', { id: order.alarmId })}
                  </Link>,
                ],
                [t('ops.wo.field.alarmOccurred'), <ZonedTime key="occurred" value={order.alarmOccurredAt} timeZone={order.timezone} />],
                [t('ops.wo.field.device'), order.deviceName],
                [t('ops.wo.field.deviceSn'), order.deviceSn],
              ] as [string, ReactNode][])
            : []),
          [t('ops.wo.field.submitter'), order.submitter],
          [t('ops.wo.field.processor'), order.processor || order.assigneeDept],
          [t('ops.wo.field.submitTime'), <ZonedTime key="submitTime" value={order.submitTime} timeZone={order.timezone} />],
          [t('ops.wo.field.plannedStart'), <ZonedTime key="plannedStart" value={order.plannedStart} timeZone={order.timezone} />],
          [t('ops.wo.field.plannedEnd'), <ZonedTime key="plannedEnd" value={order.plannedEnd} timeZone={order.timezone} />],
          [t('ops.wo.field.plannedHours'), hours(order.plannedHours)],
          [t('ops.wo.field.actualStart'), <ZonedTime key="actualStart" value={order.actualStart} timeZone={order.timezone} />],
          [t('ops.wo.field.actualEnd'), <ZonedTime key="actualEnd" value={order.actualEnd} timeZone={order.timezone} />],
          [t('ops.wo.field.actualHours'), order.actualStart ? hours(order.actualHours) : ''],
          [t('ops.wo.field.deviation'), order.actualStart ? `${formatNumber(order.deviationPercent, 1)}%` : ''],
          [t('ops.wo.field.overtime'), live.overtimeHours > 0 ? hours(live.overtimeHours) : ''],
        ]}
      />
      <h3 className={styles.subTitle}>{t('ops.wo.history')}</h3>
      <ol className={styles.timeline} aria-label={t('ops.wo.history')}>
        {order.events
          .slice()
          .reverse()
          .map((e) => (
            <li key={e.id}>
              <div className={styles.meta}>
                <ZonedTime value={e.time} timeZone={order.timezone} />
                <span>{e.userName}</span>
                <strong>{t(`ops.wo.event.${e.action}`)}</strong>
                {e.toStatus > 0 && <span>→ {t(`status.workOrderStatus.${e.toStatus}`)}</span>}
              </div>
              {e.comment && <p className={styles.body}>{e.comment}</p>}
            </li>
          ))}
      </ol>
      <SitePanel order={order} />
      <Comments order={order} />
      <Attachments order={order} />
    </>
  );
}

/** One work order (GET /v2/workorder/detail/{id}) with its transitions, history, comments and files. */
export function WorkOrderDrawer({ id, now, onClose }: { id: number | undefined; now: number; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useWorkOrderDetail(id);
  const [action, setAction] = useState<WorkOrderAction | null>(null);
  // the order as it will be once the actions waiting for the network are applied
  const { queue } = useOfflineQueue();
  const templates = useQuery({ ...checklistTemplatesQuery, enabled: queue.some((a) => a.orderId === id) });
  const order = useMemo(() => detail.data && withQueued(detail.data, queue, templates.data ?? []), [detail.data, queue, templates.data]);
  const title = order ? t('ops.wo.detailOf', { number: order.number }) : t('ops.wo.detail');
  const dialog = { role: 'dialog', 'aria-modal': true, 'aria-label': title } as object;
  return (
    <>
      <Drawer {...dialog} width={560} title={title} visible={id !== undefined} onCancel={onClose} footer={null} unmountOnExit focusLock autoFocus>
        <QueueBar />
        <DataState loading={detail.isPending} error={detail.isError} onRetry={() => void detail.refetch()} minHeight={240}>
          {order && <DetailBody order={order} now={now} onAction={setAction} />}
        </DataState>
      </Drawer>
      {order && <ActionDialog order={order} action={action} onClose={() => setAction(null)} />}
    </>
  );
}
