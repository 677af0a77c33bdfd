import Drawer from '@arco-design/web-react/es/Drawer';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Drawer/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { type Attempt, deliveryColor, isSet, logQuery, type Webhook } from './api';
import styles from './webhooks.module.css';

/** A webhook's delivery log: each attempt with the receiver's status and time taken, newest first. */
export function LogDrawer({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const { t } = useTranslation();
  const log = useQuery({ ...logQuery(webhook?.id ?? 0), enabled: webhook !== null });
  const time = (v?: string) => (isSet(v) ? zonedTime(v, undefined, currentLocale()).text : '—');
  const columns: FitColumn<Attempt>[] = [
    { title: t('webhook.log.time'), dataIndex: 'time', width: 190, render: (v?: string) => time(v) },
    { title: t('webhook.log.event'), dataIndex: 'event', render: (v: string) => t(`webhook.event.${v}`, { defaultValue: v }) },
    {
      title: t('webhook.log.state'),
      dataIndex: 'state',
      width: 110,
      render: (v: string) => <Tag color={deliveryColor(v)}>{t(`webhook.state.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('webhook.log.attempt'), dataIndex: 'attempt', width: 80, render: (v: number) => (v > 0 ? v : '—') },
    { title: t('webhook.log.status'), dataIndex: 'status', width: 90, render: (v: number, a: Attempt) => (v > 0 ? v : a.attempt ? t('webhook.log.noAnswer') : '—') },
    { title: t('webhook.log.duration'), dataIndex: 'durationMs', width: 100, render: (v: number, a: Attempt) => (a.attempt ? t('webhook.log.ms', { ms: v }) : '—') },
    {
      title: t('webhook.log.detail'),
      render: (_: unknown, a: Attempt) =>
        a.error ? (
          <span className={styles.error}>{a.error}</span>
        ) : a.state === 'pending' && isSet(a.nextTime) ? (
          t('webhook.log.next', { time: time(a.nextTime) })
        ) : (
          <code className={styles.code}>{a.deliveryId}</code>
        ),
    },
  ];
  return (
    <Drawer
      width={960}
      title={t('webhook.log.title', { name: webhook?.name ?? '' })}
      visible={webhook !== null}
      onCancel={onClose}
      footer={null}
      unmountOnExit
    >
      <p className={styles.intro}>{t('webhook.log.intro')}</p>
      <DataState
        loading={log.isPending}
        error={log.isError}
        onRetry={() => void log.refetch()}
        empty={log.data?.length === 0}
        emptyText={t('webhook.log.empty')}
        minHeight={200}
      >
        <CardTable label={t('webhook.log.title', { name: webhook?.name ?? '' })}
          rowKey={(a: Attempt) => `${a.deliveryId}-${a.attempt}`}
          columns={columns}
          data={log.data ?? []}
          pagination={false}
          border={false}
          size="small"
        />
      </DataState>
    </Drawer>
  );
}
