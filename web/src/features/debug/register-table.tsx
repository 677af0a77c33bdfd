import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Switch from '@arco-design/web-react/es/Switch';
import '@arco-design/web-react/es/Switch/style/css.js';
import '@arco-design/web-react/es/Table/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { Panel } from '@/components/panel';
import { ApiError } from '@/lib/api-client';
import { hexWords, type LiveRegister, useLiveRegisters } from './api/scada';
import styles from './debug.module.css';
import { formatValue } from './format';
import { WriteDialog } from './write-dialog';

/** The device's registers read live: raw words and decoded values, refreshed every few seconds. */
export function RegisterTable({ deviceId, isAdmin }: { deviceId: number; isAdmin: boolean }) {
  const { t } = useTranslation();
  const [auto, setAuto] = useState(true);
  const [writing, setWriting] = useState<LiveRegister>();
  const live = useLiveRegisters(deviceId, true, auto);
  const data = live.data;
  const failure = live.error instanceof ApiError ? live.error.msg : undefined;

  const columns: FitColumn<LiveRegister>[] = [
    {
      title: t('debug.register'),
      dataIndex: 'name',
      phone: 'primary',
      width: 200,
      render: (_: string, r) =>
        r.model ? `${r.model}${r.group ? ` #${r.group}` : ''} · ${r.name}` : r.name,
    },
    { title: t('debug.registerAddress'), dataIndex: 'address', width: 110, phone: 'primary' },
    { title: t('debug.function'), dataIndex: 'function', width: 150, render: (v: string) => t(`debug.functions.${v}`) },
    { title: t('debug.dataType'), dataIndex: 'dataType', width: 100 },
    { title: t('debug.raw'), dataIndex: 'raw', render: (v: number[] | null) => <code className={styles.raw}>{hexWords(v)}</code> },
    { title: t('debug.value'), dataIndex: 'value', align: 'right', phone: 'primary', render: (_: unknown, r) => formatValue(r) },
    { title: t('debug.target'), dataIndex: 'target', width: 120, render: (v: string) => v || '—' },
  ];
  if (isAdmin) {
    columns.push({
      title: t('debug.actions'),
      dataIndex: 'writable',
      width: 100,
      phone: 'actions',
      render: (_: boolean, r) =>
        r.writable ? (
          <Button size="mini" onClick={() => setWriting(r)} aria-label={t('debug.writeOf', { name: r.name })}>
            {t('debug.write')}
          </Button>
        ) : null,
    });
  }

  return (
    <Panel
      title={t('debug.registers')}
      extra={
        <>
          {data?.protocol === 'map' && (
            <span className={styles.meta}>{t('debug.mapInUse', { name: data.mapName, version: data.mapVersion })}</span>
          )}
          {data && (
            <span className={styles.meta}>
              {t('debug.readAt', { time: new Date(data.readAt).toLocaleTimeString(), ms: data.latencyMs.toFixed(1) })}
            </span>
          )}
          <label className={styles.meta}>
            <Switch size="small" checked={auto} onChange={setAuto} aria-label={t('debug.autoRefresh')} />{' '}
            {t('debug.autoRefresh')}
          </label>
          <Button size="small" onClick={() => void live.refetch()} loading={live.isFetching}>
            {t('debug.readNow')}
          </Button>
        </>
      }
    >
      {failure && (
        <p className={styles.warning} role="alert">
          {failure}
        </p>
      )}
      <DataState
        loading={live.isPending && live.fetchStatus !== 'idle'}
        error={live.isError && !data}
        onRetry={() => void live.refetch()}
        empty={!!data && data.registers.length === 0}
        minHeight={160}
      >
        {data && (
          <CardTable
            label={t('debug.registers')}
            size="small"
            rowKey={(r) => `${r.model}-${r.group}-${r.name}`}
            columns={columns}
            data={data.registers}
            pagination={false}
            scroll={{ y: 520 }}
          />
        )}
      </DataState>
      {writing && <WriteDialog deviceId={deviceId} register={writing} onClose={() => setWriting(undefined)} />}
    </Panel>
  );
}
