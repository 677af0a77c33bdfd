import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import { IconUpload } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import { filesQuery, type ImportFile, uploadFile, useDeleteFile } from './api';
import { formatSize } from './format';
import styles from './history-import.module.css';
import { JobProgress } from './job-progress';

interface Upload {
  key: string;
  name: string;
  size: number;
  fraction: number;
  error?: string;
}

export interface UploadPanelProps {
  /** The files chosen for the next dry run or import. */
  chosen: number[];
  onChosen: (ids: number[]) => void;
  /** The file whose preview the mapping starts from. */
  previewId: number | null;
  onPreview: (id: number) => void;
  onDeleted: (id: number) => void;
}

/** Choose CSV/XLSX files, upload each with its progress, list the uploaded files. */
export function UploadPanel({ chosen, onChosen, previewId, onPreview, onDeleted }: UploadPanelProps) {
  const { t } = useTranslation();
  const files = useQuery(filesQuery);
  const remove = useDeleteFile();
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  // each upload's way to stop it (waiting ones stop before they start)
  const stops = useRef(new Map<string, AbortController>());
  useEffect(() => {
    const all = stops.current;
    return () => all.forEach((c) => c.abort());
  }, []);

  const patch = (key: string, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    const started = picked.map((f, i) => ({ file: f, key: `${Date.now()}-${i}-${f.name}` }));
    started.forEach(({ key }) => stops.current.set(key, new AbortController()));
    setUploads((list) => [...list, ...started.map(({ file, key }) => ({ key, name: file.name, size: file.size, fraction: 0 }))]);
    // the first file uploaded is previewed unless one already is
    let previewed = previewId !== null;
    // one at a time: the organisation's quota is checked file by file
    for (const { file, key } of started) {
      const signal = stops.current.get(key)?.signal;
      try {
        if (signal?.aborted) continue;
        const stored = await uploadFile(file, (fraction) => patch(key, { fraction }), signal);
        setUploads((list) => list.filter((u) => u.key !== key));
        notifySuccess(t('historyImport.uploaded', { name: file.name }));
        await queryClient.invalidateQueries({ queryKey: filesQuery.queryKey });
        if (stored.id !== undefined && !previewed) {
          previewed = true;
          onPreview(stored.id);
        }
      } catch (err) {
        if (!signal?.aborted) patch(key, { error: err instanceof Error ? err.message : String(err) });
      } finally {
        stops.current.delete(key);
      }
    }
  };

  const stop = (key: string) => {
    stops.current.get(key)?.abort();
    stops.current.delete(key);
    setUploads((list) => list.filter((u) => u.key !== key));
  };

  const toggle = (id: number, on: boolean) => onChosen(on ? [...chosen, id] : chosen.filter((c) => c !== id));

  const columns: FitColumn<ImportFile>[] = [
    {
      title: t('historyImport.col.include'),
      width: 80,
      render: (_: unknown, f: ImportFile) => (
        <Checkbox
          checked={chosen.includes(f.id ?? 0)}
          onChange={(on: boolean) => toggle(f.id ?? 0, on)}
          aria-label={t('historyImport.includeNamed', { name: f.name })}
        />
      ),
    },
    { title: t('historyImport.col.name'), dataIndex: 'name', render: (n: string) => <span className={styles.fileName}>{n}</span> },
    { title: t('historyImport.col.kind'), dataIndex: 'kind', width: 80, render: (k: string) => k.toUpperCase() },
    { title: t('historyImport.col.size'), dataIndex: 'size', width: 110, align: 'right', render: (s: number) => formatSize(s) },
    {
      title: t('historyImport.col.uploadedAt'),
      dataIndex: 'createdAt',
      width: 210,
      render: (v: string) => zonedTime(v, undefined, currentLocale()).text,
    },
    {
      title: t('historyImport.col.actions'), phone: 'actions',
      width: 190,
      render: (_: unknown, f: ImportFile) => (
        <span className={styles.actions}>
          <Button
            size="mini"
            type={previewId === f.id ? 'primary' : 'secondary'}
            onClick={() => onPreview(f.id ?? 0)}
            aria-label={t('historyImport.previewNamed', { name: f.name })}
          >
            {t('historyImport.preview')}
          </Button>
          <Popconfirm
            title={t('historyImport.deleteConfirm', { name: f.name })}
            onOk={() =>
              remove.mutateAsync(f.id ?? 0).then(
                () => {
                  onDeleted(f.id ?? 0);
                  notifySuccess(t('historyImport.deleted'));
                },
                (err: unknown) => notifyError(err instanceof Error ? err.message : String(err)),
              )
            }
          >
            <Button size="mini" status="danger" aria-label={t('historyImport.deleteNamed', { name: f.name })}>
              {t('historyImport.delete')}
            </Button>
          </Popconfirm>
        </span>
      ),
    },
  ];

  return (
    <>
      <p className={styles.hint}>{t('historyImport.uploadHint')}</p>
      <div className={styles.toolbar}>
        <Button type="primary" icon={<IconUpload />} onClick={() => input.current?.click()}>
          {t('historyImport.choose')}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className={styles.fileInput}
          aria-label={t('historyImport.choose')}
          data-testid="import-file-input"
          onChange={(e) => void choose(e)}
        />
      </div>
      {uploads.length > 0 && (
        <ul className={styles.uploads} aria-label={t('historyImport.uploading')}>
          {uploads.map((u) => (
            <li key={u.key} className={styles.upload}>
              <span className={styles.fileName}>{u.name}</span>
              <span className={styles.muted}>{formatSize(u.size)}</span>
              {u.error ? (
                <span className={styles.error} role="alert">
                  {u.error}
                  <Button size="mini" type="text" onClick={() => setUploads((l) => l.filter((x) => x.key !== u.key))}>
                    {t('historyImport.dismiss')}
                  </Button>
                </span>
              ) : (
                <span className={styles.uploadBar}>
                  <JobProgress small fraction={u.fraction} label={t('historyImport.uploadingNamed', { name: u.name })} />
                  <Button size="mini" type="text" onClick={() => stop(u.key)} aria-label={t('historyImport.stopUploadNamed', { name: u.name })}>
                    {t('historyImport.stopUpload')}
                  </Button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      <DataState
        loading={files.isPending}
        error={files.isError}
        onRetry={() => void files.refetch()}
        empty={files.data?.length === 0}
        emptyText={t('historyImport.noFiles')}
        minHeight={120}
      >
        <CardTable label={t('historyImport.files')}
          rowKey="id"
          columns={columns}
          data={files.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          border={false}
          scroll={{ x: 820 }}
        />
      </DataState>
    </>
  );
}
