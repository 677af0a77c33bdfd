import Button from '@arco-design/web-react/es/Button';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import Space from '@arco-design/web-react/es/Space';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import '@arco-design/web-react/es/Space/style/css.js';
import { IconPlus } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { PageHeader, Panel } from '@/components/panel';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type IssuedKey, type KeyInfo, requestOf, useIssueKey, useKeys, useRevokeKey } from './api';
import styles from './ingest-keys.module.css';
import { IssueDialog, ShownKeyDialog } from './key-dialogs';
import { ingestKeyTexts } from './texts';

/**
 * Ingest keys of the organisation (administrators): issue, rotate and revoke the keys that
 * devices and collectors send samples with. A key is shown once, when issued; the list shows
 * fingerprints only.
 */
export function IngestKeysPage() {
  const { t } = useTranslation();
  const ready = ingestKeyTexts.useReady();
  const keys = useKeys();
  const issue = useIssueKey();
  const revoke = useRevokeKey();
  const [dialog, setDialog] = useState(false);
  const [shown, setShown] = useState<IssuedKey | null>(null);
  const failed = (err: unknown) => notifyError(t('ingestKeys.failed', { reason: err instanceof Error ? err.message : String(err) }));

  const columns: FitColumn<KeyInfo>[] = [
    { title: t('ingestKeys.col.kind'), dataIndex: 'kind', width: 140, render: (k: string) => t(`ingestKeys.kind.${k}`) },
    { title: t('ingestKeys.col.target'), dataIndex: 'target' },
    { title: t('ingestKeys.col.device'), dataIndex: 'deviceName', render: (v: string) => v || '—' },
    { title: t('ingestKeys.col.station'), dataIndex: 'station', render: (v: string) => v || '—' },
    {
      title: t('ingestKeys.col.fingerprint'),
      dataIndex: 'fingerprint',
      width: 130,
      render: (v: string) => <span className={styles.fingerprint}>{v}</span>,
    },
    {
      title: t('ingestKeys.col.issued'),
      dataIndex: 'issuedAt',
      width: 180,
      render: (v?: string) => (v && new Date(v).getTime() > 0 ? zonedTime(v, undefined, currentLocale()).text : t('ingestKeys.unknownTime')),
    },
    {
      title: t('ingestKeys.col.actions'), phone: 'actions',
      width: 180,
      render: (_: unknown, key: KeyInfo) => (
        <Space>
          <Popconfirm
            title={t('ingestKeys.confirm.rotate', { target: key.target })}
            onOk={() => issue.mutateAsync(requestOf(key)).then(setShown, failed)}
          >
            <Button size="mini">{t('ingestKeys.rotate')}</Button>
          </Popconfirm>
          <Popconfirm
            title={t('ingestKeys.confirm.revoke', { target: key.target })}
            onOk={() => revoke.mutateAsync(requestOf(key)).then(() => notifySuccess(t('ingestKeys.revoked')), failed)}
          >
            <Button size="mini" status="danger">
              {t('ingestKeys.revoke')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={t('menu.permission.ingestKeys')} />
      {!ready ? (
        <DataState loading minHeight={320} />
      ) : (
        <Panel
          title={t('ingestKeys.title')}
          extra={
            <Button type="primary" icon={<IconPlus />} onClick={() => setDialog(true)}>
              {t('ingestKeys.issue')}
            </Button>
          }
        >
          <p className={styles.intro}>{t('ingestKeys.intro')}</p>
          {/* the other doors into Helio, beside the keys of devices and collectors */}
          <p className={`${styles.intro} ${styles.doors}`}>
            <Link to="/permission/line-protocol" className={styles.link}>
              {t('ingestKeys.lineLink')}
            </Link>
            <Link to="/permission/ingest-mqtt" className={styles.link}>
              {t('menu.permission.ingestMqtt')}
            </Link>
            <Link to="/permission/import" className={styles.link}>
              {t('ingestKeys.importLink')}
            </Link>
            <Link to="/permission/cloud" className={styles.link}>
              {t('ingestKeys.cloudLink')}
            </Link>
          </p>
          <DataState
            loading={keys.isPending}
            error={keys.isError}
            onRetry={() => void keys.refetch()}
            empty={keys.data?.length === 0}
            emptyText={t('ingestKeys.empty')}
            minHeight={240}
          >
            <CardTable label={t('ingestKeys.title')}
              rowKey={(k: KeyInfo) => `${k.kind}:${k.target}`}
              columns={columns}
              data={keys.data ?? []}
              pagination={false}
              border={false}
            />
          </DataState>
        </Panel>
      )}
      <IssueDialog
        visible={dialog}
        onClose={() => setDialog(false)}
        onIssued={(k) => {
          setDialog(false);
          setShown(k);
        }}
      />
      <ShownKeyDialog issued={shown} onClose={() => setShown(null)} />
    </>
  );
}
