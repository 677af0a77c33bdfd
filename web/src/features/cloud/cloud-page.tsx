import Button from '@arco-design/web-react/es/Button';
import Space from '@arco-design/web-react/es/Space';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Space/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminListPage, EditDelete } from '@/components/list/admin-list';
import type { FitColumn } from '@/components/list/fit-columns';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type Connection, connectionsQuery, quotaText, stateColor, useDeleteConnection, useSyncNow, vendorLabel, vendorsQuery } from './api';
import styles from './cloud.module.css';
import { ConnectionDialog } from './connection-dialog';
import { DiscoverDialog } from './discover-dialog';
import { cloudTexts } from './texts';

/**
 * Vendor-cloud connections (administrators): connect an account, choose the sites and devices
 * to create, and follow each connection's state, today's calls of its budget, the next sync and
 * the last error. Credentials are write-only: the list never shows them.
 */
export function CloudPage() {
  const { t } = useTranslation();
  const ready = cloudTexts.useReady();
  const list = useQuery(connectionsQuery);
  const vendors = useQuery(vendorsQuery);
  const remove = useDeleteConnection();
  const sync = useSyncNow();
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [discovering, setDiscovering] = useState<Connection | null>(null);
  const failed = (err: unknown) => notifyError(t('cloud.failed', { reason: err instanceof Error ? err.message : String(err) }));
  const time = (v?: string) => (v && new Date(v).getTime() > 0 ? zonedTime(v, undefined, currentLocale()).text : '—');

  const columns: FitColumn<Connection>[] = [
    { title: t('cloud.col.name'), dataIndex: 'name' },
    { title: t('cloud.col.vendor'), dataIndex: 'vendor', width: 120, render: (v: string) => vendorLabel(vendors.data, v) },
    {
      title: t('cloud.col.state'),
      dataIndex: 'state',
      width: 150,
      render: (v: string) => <Tag color={stateColor(v)}>{t(`cloud.state.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('cloud.col.devices'), dataIndex: 'devices', width: 90 },
    { title: t('cloud.col.quota'), width: 120, render: (_: unknown, c: Connection) => quotaText(c) },
    { title: t('cloud.col.nextSync'), dataIndex: 'nextSync', width: 170, render: (v?: string) => time(v) },
    { title: t('cloud.col.lastSync'), dataIndex: 'lastSync', width: 170, render: (v?: string) => time(v) },
    {
      title: t('cloud.col.lastError'),
      dataIndex: 'lastError',
      render: (v?: string) => (v ? <span className={styles.error}>{v}</span> : '—'),
    },
    {
      title: t('cloud.col.actions'),
      phone: 'actions',
      width: 300,
      render: (_: unknown, c: Connection) => (
        <Space wrap>
          <Button size="mini" type="primary" onClick={() => setDiscovering(c)}>
            {t('cloud.discover')}
          </Button>
          <Button size="mini" onClick={() => sync.mutateAsync(c.id ?? 0).then(() => notifySuccess(t('cloud.syncQueued')), failed)}>
            {t('cloud.syncNow')}
          </Button>
          <EditDelete
            editLabel={t('cloud.edit')}
            deleteLabel={t('cloud.delete')}
            confirm={t('cloud.deleteConfirm', { name: c.name })}
            onEdit={() => setEditing(c)}
            onDelete={() => remove.mutateAsync(c.id ?? 0).then(() => notifySuccess(t('cloud.deleted')), failed)}
          />
        </Space>
      ),
    },
  ];

  return (
    <AdminListPage
      ready={ready}
      pageTitle={t('menu.permission.cloud')}
      title={t('cloud.title')}
      intro={t('cloud.intro')}
      addLabel={t('cloud.add')}
      onAdd={() => setEditing('new')}
      query={list}
      columns={columns}
      emptyText={t('cloud.empty')}
    >
      <ConnectionDialog editing={editing} onClose={() => setEditing(null)} />
      <DiscoverDialog connection={discovering} onClose={() => setDiscovering(null)} />
    </AdminListPage>
  );
}
