import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Message from '@arco-design/web-react/es/Message';
import '@arco-design/web-react/es/Message/style/css.js';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { Panel } from '@/components/panel';
import { ApiError } from '@/lib/api-client';
import { exportMap, type MapSummary, mapsQuery, useDeleteMap, useImportMap } from './api/scada';
import styles from './debug.module.css';
import { MapEditor } from './map-editor';

/** Largest map file the console reads (the server takes 256 KiB). */
const MAX_FILE = 256 * 1024;

/**
 * The organisation's register maps: export each as a file, import a file (a new map, or the next
 * version of the map with the same name), delete maps no device uses.
 */
export function RegisterMaps({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const maps = useQuery(mapsQuery);
  const importMap = useImportMap();
  const remove = useDeleteMap();
  const input = useRef<HTMLInputElement>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    if (file.size > MAX_FILE) {
      Message.error(t('debug.maps.tooLarge'));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await file.text());
    } catch {
      Message.error(t('debug.maps.badFile'));
      return;
    }
    importMap.mutate(body, {
      onSuccess: (m) => Message.success(t('debug.maps.imported', { name: m.name, version: m.version })),
      onError: (e) => {
        if (e instanceof ApiError) {
          const fields = Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`);
          Message.error(fields.length ? `${e.msg} — ${fields.slice(0, 3).join('; ')}` : e.msg);
        }
      },
    });
  };

  const columns: FitColumn<MapSummary>[] = [
    { title: t('debug.maps.name'), dataIndex: 'name' },
    { title: t('debug.maps.model'), dataIndex: 'model' },
    { title: t('debug.maps.version'), dataIndex: 'version', width: 90 },
    { title: t('debug.maps.registers'), dataIndex: 'registers', width: 110 },
    { title: t('debug.maps.devices'), dataIndex: 'devices', width: 110 },
    { title: t('debug.maps.updated'), dataIndex: 'updateTime', width: 200, render: (v: string) => new Date(v).toLocaleString() },
    {
      title: t('debug.actions'), phone: 'actions',
      dataIndex: 'id',
      width: 200,
      render: (_: number, m) => (
        <span className={styles.actions}>
          <Button size="mini" onClick={() => void exportMap(m).catch(() => undefined)}>
            {t('debug.maps.export')}
          </Button>
          {isAdmin && (
            <Popconfirm title={t('debug.maps.deleteConfirm', { name: m.name })} onOk={() => remove.mutate(m.id)}>
              <Button size="mini" status="danger" disabled={m.devices > 0}>
                {t('debug.maps.delete')}
              </Button>
            </Popconfirm>
          )}
        </span>
      ),
    },
  ];

  return (
    <>
      <Panel
        title={t('debug.maps.title')}
        extra={
          isAdmin && (
            <>
              <input
                ref={input}
                type="file"
                accept=".json,application/json"
                className={styles.hidden}
                aria-label={t('debug.maps.import')}
                onChange={(e) => {
                  void onFile(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              <Button size="small" type="primary" loading={importMap.isPending} onClick={() => input.current?.click()}>
                {t('debug.maps.import')}
              </Button>
            </>
          )
        }
      >
        <p className={styles.meta}>{t('debug.maps.hint')}</p>
        <DataState
          loading={maps.isPending}
          error={maps.isError}
          onRetry={() => void maps.refetch()}
          empty={maps.data?.list.length === 0}
          emptyText={t('debug.maps.empty')}
          minHeight={160}
        >
          <CardTable label={t('debug.maps.title')} size="small" rowKey="id" columns={columns} data={maps.data?.list ?? []} pagination={false} />
        </DataState>
      </Panel>
      {isAdmin && <MapEditor />}
    </>
  );
}
