import Button from '@arco-design/web-react/es/Button';
import Modal from '@arco-design/web-react/es/Modal';
import Space from '@arco-design/web-react/es/Space';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Space/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminListPage, EditDelete } from '@/components/list/admin-list';
import type { FitColumn } from '@/components/list/fit-columns';
import { zonedTime } from '@/lib/format';
import { currentLocale, LOCALES } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { deliveryColor, formatLabel, isSet, useDeleteWebhook, useSendTest, type Webhook, webhooksQuery } from './api';
import { LogDrawer } from './log-drawer';
import { webhookTexts } from './texts';
import { WebhookDialog } from './webhook-dialog';
import styles from './webhooks.module.css';

/**
 * Webhooks (administrators): where the organisation's alarms, work orders and reports are sent
 * (Helio's signed JSON, a Teams or a Slack channel), each webhook's last delivery, a test
 * delivery on demand and the log of every attempt.
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const ready = webhookTexts.useReady();
  const list = useQuery(webhooksQuery);
  const remove = useDeleteWebhook();
  const test = useSendTest();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const failed = (err: unknown) => notifyError(t('webhook.failed', { reason: err instanceof Error ? err.message : String(err) }));
  const time = (v?: string) => (isSet(v) ? zonedTime(v, undefined, currentLocale()).text : '');

  const columns: FitColumn<Webhook>[] = [
    { title: t('webhook.col.name'), dataIndex: 'name' },
    { title: t('webhook.col.format'), dataIndex: 'format', width: 130, render: (v: string) => formatLabel(v, t) },
    {
      title: t('webhook.col.events'),
      dataIndex: 'events',
      render: (v: string[]) => (
        <span className={styles.events}>
          {(v ?? []).map((e) => (
            <Tag key={e} size="small">
              {t(`webhook.event.${e}`, { defaultValue: e })}
            </Tag>
          ))}
        </span>
      ),
    },
    { title: t('webhook.col.language'), dataIndex: 'language', width: 110, render: (v: string) => LOCALES.find((l) => l.value === v)?.label ?? v },
    {
      title: t('webhook.col.enabled'),
      dataIndex: 'enabled',
      width: 100,
      render: (v: boolean) => <Tag color={v ? 'green' : 'gray'}>{v ? t('webhook.on') : t('webhook.off')}</Tag>,
    },
    {
      title: t('webhook.col.last'),
      width: 230,
      render: (_: unknown, w: Webhook) =>
        w.lastState ? (
          <Space direction="vertical" size={2}>
            <Tag color={deliveryColor(w.lastState)}>{t(`webhook.state.${w.lastState}`, { defaultValue: w.lastState })}</Tag>
            <span>{time(w.lastTime)}</span>
            {(w.pending ?? 0) > 0 && <span>{t('webhook.pendingCount', { count: w.pending })}</span>}
          </Space>
        ) : (
          t('webhook.never')
        ),
    },
    {
      title: t('webhook.col.actions'),
      phone: 'actions',
      width: 300,
      render: (_: unknown, w: Webhook) => (
        <Space wrap>
          <Button size="mini" type="primary" onClick={() => setLogOf(w)}>
            {t('webhook.log.open')}
          </Button>
          <Button
            size="mini"
            loading={test.isPending && test.variables === w.id}
            onClick={() => test.mutateAsync(w.id ?? 0).then(() => notifySuccess(t('webhook.testQueued')), failed)}
          >
            {t('webhook.test')}
          </Button>
          <EditDelete
            editLabel={t('webhook.edit')}
            deleteLabel={t('webhook.delete')}
            confirm={t('webhook.deleteConfirm', { name: w.name })}
            onEdit={() => setEditing(w)}
            onDelete={() => remove.mutateAsync(w.id ?? 0).then(() => notifySuccess(t('webhook.deleted')), failed)}
          />
        </Space>
      ),
    },
  ];

  return (
    <AdminListPage
      ready={ready}
      pageTitle={t('menu.permission.webhooks')}
      title={t('webhook.title')}
      intro={t('webhook.intro')}
      addLabel={t('webhook.add')}
      onAdd={() => setEditing('new')}
      query={list}
      columns={columns}
      emptyText={t('webhook.empty')}
    >
      <WebhookDialog editing={editing} onClose={() => setEditing(null)} onSecret={(name, s) => setSecret({ name, secret: s })} />
      <LogDrawer webhook={logOf} onClose={() => setLogOf(null)} />
      <Modal
        title={t('webhook.secret.title', { name: secret?.name ?? '' })}
        visible={secret !== null}
        onOk={() => setSecret(null)}
        onCancel={() => setSecret(null)}
        hideCancel
        okText={t('webhook.secret.done')}
        unmountOnExit
      >
        <p>{t('webhook.secret.intro')}</p>
        <code className={styles.secret} data-testid="webhook-secret">
          {secret?.secret}
        </code>
        <p>{t('webhook.secret.verify')}</p>
      </Modal>
    </AdminListPage>
  );
}
