import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { StatusTag } from '@/components/status-tag';
import styles from './alarm.module.css';
import type { AlarmDetail } from './api/alarms';
import { formatInZone } from './format-time';

/** The address of a work order's drawer. */
export const workOrderHref = (id: number) => `/operations/workorder?detail=${id}`;

/** The work orders opened from an alarm, newest first, each with its status now and a link to it. */
export function AlarmOrders({ alarm }: { alarm: AlarmDetail }) {
  const { t } = useTranslation();
  const orders = alarm.orders ?? [];
  return (
    <section aria-label={t('alarm.detail.orders')}>
      <h3 className={styles.subTitle}>{t('alarm.detail.orders')}</h3>
      {orders.length === 0 ? (
        <p className={styles.muted}>{t('alarm.detail.noOrders')}</p>
      ) : (
        <ul className={styles.orders}>
          {orders.map((o) => (
            <li key={o.id} data-testid={`alarm-order-${o.id}`}>
              <div className={styles.orderHead}>
                <Link to={workOrderHref(o.id)} aria-label={t('alarm.detail.orderOf', { number: o.number })}>
                  {o.number}
                </Link>
                <StatusTag category="workOrderStatus" value={o.status} appearance="filled" />
              </div>
              <p className={styles.orderTitle}>{o.title}</p>
              <span className={styles.historyMeta}>
                {o.open
                  ? t('alarm.detail.orderOpened', { time: formatInZone(o.submitTime, alarm.timezone) })
                  : t('alarm.detail.orderDone', { time: formatInZone(o.updateTime, alarm.timezone) })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
