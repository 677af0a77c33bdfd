import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { IconDelete, IconDownload, IconEye, IconUpload } from '@arco-design/web-react/icon';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import type { FitColumn } from '@/components/list/fit-columns';
import { ListTable } from '@/components/list/list-table';
import { PageHeader, Panel } from '@/components/panel';
import { Permission } from '@/components/permission';
import { downloadFile } from '@/lib/download';
import { NO_VALUE, zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useQueryParams } from '@/lib/use-query-params';
import {
  DOC_EXTENSIONS,
  DOCUMENTS_PATH,
  fileProblem,
  uploadDocument,
  useDeleteDocument,
  useDocDetail,
  useDocStats,
  useDocuments,
  type DocStatus,
  type DocumentItem,
} from './api';
import styles from './documents-page.module.css';
import { assistantTexts } from './texts';

/** Bytes in a short human form (B, kB, MB). */
export function formatBytes(n: number): string {
  if (n < 1024) {
    return `${n} B`;
  }
  if (n < 1024 * 1024) {
    return `${(n / 1024).toFixed(1)} kB`;
  }
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The tag colour of each status; a status this console does not know shows a plain tag. */
const STATUS_COLOR: Partial<Record<string, string>> = {
  queued: 'gray',
  indexing: 'arcoblue',
  ready: 'green',
  failed: 'red',
} satisfies Record<DocStatus, string>;

function Stats() {
  const { t } = useTranslation();
  const stats = useDocStats();
  const s = stats.data;
  const items = s
    ? [
        ['documents', String(s.documents)],
        ['chunks', String(s.chunks)],
        ['bytes', formatBytes(s.bytes)],
        ['index', formatBytes(s.indexBytes)],
        ['lastIndexed', s.lastIndexed ? zonedTime(s.lastIndexed, undefined, currentLocale()).text : t('assistant.documents.never')],
        ['ranking', t(s.embeddings ? 'assistant.documents.ranking.hybrid' : 'assistant.documents.ranking.bm25')],
      ]
    : [];
  return (
    <DataState loading={stats.isPending} error={stats.isError} onRetry={() => void stats.refetch()} minHeight={64}>
      <dl className={styles.stats}>
        {items.map(([key, value]) => (
          <div className={styles.stat} key={key}>
            <dt className={styles.statLabel}>{t(`assistant.documents.stats.${key}`)}</dt>
            <dd className={styles.statValue} style={{ margin: 0 }}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </DataState>
  );
}

function UploadButton() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; percent: number } | null>(null);
  const onFiles = async (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const problem = fileProblem(file);
      if (problem) {
        notifyError(t(problem === 'type' ? 'assistant.documents.typeError' : 'assistant.documents.sizeError', { name: file.name }));
        continue;
      }
      setProgress({ name: file.name, percent: 0 });
      try {
        await uploadDocument(file, (share) => setProgress({ name: file.name, percent: Math.round(share * 100) }));
        notifySuccess(t('assistant.documents.uploaded', { name: file.name }));
      } catch {
        // the request layer has shown what the server said
      }
    }
    setProgress(null);
    if (input.current) {
      input.current.value = '';
    }
  };
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        accept={DOC_EXTENSIONS.join(',')}
        className={styles.hidden}
        data-testid="document-file"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => void onFiles(event.target.files)}
      />
      <Button type="primary" icon={<IconUpload />} loading={progress !== null} onClick={() => input.current?.click()}>
        {t('assistant.documents.upload')}
      </Button>
      {progress && (
        <span className={styles.progress} role="status">
          {t('assistant.documents.uploading', progress)}
        </span>
      )}
    </>
  );
}

function DocumentView({ id, seq, onClose }: { id: number; seq: number; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useDocDetail(id);
  const cited = useRef<HTMLDivElement>(null);
  useEffect(() => {
    cited.current?.scrollIntoView({ block: 'center' });
  }, [detail.data]);
  return (
    <Modal
      visible
      title={detail.data?.document?.name ?? ''}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('assistant.documents.close')}</Button>}
      style={{ width: 760 }}
    >
      <DataState
        loading={detail.isPending}
        error={detail.isError}
        empty={detail.data?.passages.length === 0}
        onRetry={() => void detail.refetch()}
        minHeight={200}
      >
        <div style={{ maxHeight: '60vh', overflowY: 'auto' }}>
          {detail.data?.passages.map((p) => (
            <div
              key={p.seq}
              ref={p.seq === seq ? cited : undefined}
              className={`${styles.passage} ${p.seq === seq ? styles.cited : ''}`}
              aria-current={p.seq === seq ? 'true' : undefined}
            >
              <div className={styles.passageHead}>
                {p.seq === seq ? `${t('assistant.documents.cited')} · ` : ''}
                {t('assistant.documents.passage', { n: p.seq + 1 })}
                {p.heading ? ` · ${p.heading}` : ''}
              </div>
              {p.body}
            </div>
          ))}
        </div>
      </DataState>
    </Modal>
  );
}

/** The assistant's document store: upload, list, view, download and delete, with its figures. */
export function DocumentsPage() {
  const { t } = useTranslation();
  assistantTexts.useReady();
  const [params, change] = useQueryParams();
  const [name, setName] = useState(params.get('name') ?? '');
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Math.min(200, Math.max(1, Number(params.get('pageSize')) || 10));
  const docId = Number(params.get('doc'));
  const seq = Number(params.get('seq')) || 0;
  const documents = useDocuments({ name: params.get('name') ?? '', page, pageSize });
  const remove = useDeleteDocument();

  const columns: FitColumn<DocumentItem>[] = [
    { title: t('assistant.documents.col.name'), dataIndex: 'name', width: 160, ellipsis: true, tooltip: true },
    { title: t('assistant.documents.col.type'), dataIndex: 'contentType', width: 150, optional: 2 },
    { title: t('assistant.documents.col.size'), dataIndex: 'size', width: 100, render: (n: number) => formatBytes(n) },
    {
      title: t('assistant.documents.col.status'),
      dataIndex: 'status',
      width: 150,
      render: (_: unknown, d) => (
        <Tag color={STATUS_COLOR[d.status]} title={d.error || undefined}>
          {t(`assistant.documents.status.${d.status}`, { percent: Math.round(d.progress * 100) })}
        </Tag>
      ),
    },
    { title: t('assistant.documents.col.chunks'), dataIndex: 'chunks', width: 90, optional: 1 },
    {
      title: t('assistant.documents.col.created'),
      dataIndex: 'createdAt',
      width: 170,
      render: (v: string) => zonedTime(v, undefined, currentLocale()).text || NO_VALUE,
    },
    {
      title: t('assistant.documents.col.actions'),
      width: 300,
      phone: 'actions',
      render: (_: unknown, d) => (
        <>
          <Button
            type="text"
            size="small"
            icon={<IconEye />}
            disabled={d.status !== 'ready'}
            onClick={() => change((next) => (next.set('doc', String(d.id)), next.delete('seq'), next))}
          >
            {t('assistant.documents.view')}
          </Button>
          <Button
            type="text"
            size="small"
            icon={<IconDownload />}
            aria-label={`${t('assistant.documents.download')} ${d.name}`}
            onClick={() => void downloadFile(`${DOCUMENTS_PATH}/${d.id}/file`, {}, d.name).catch(() => undefined)}
          >
            {t('assistant.documents.download')}
          </Button>
          <Permission roles={['admin']}>
            <Popconfirm
              title={t('assistant.documents.deleteConfirm', { name: d.name })}
              onOk={async () => {
                await remove.mutateAsync(d.id);
                notifySuccess(t('assistant.documents.deleted', { name: d.name }));
              }}
            >
              <Button type="text" size="small" status="danger" icon={<IconDelete />} aria-label={`${t('assistant.documents.delete')} ${d.name}`}>
                {t('assistant.documents.delete')}
              </Button>
            </Popconfirm>
          </Permission>
        </>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={t('assistant.documents.title')} />
      <Panel title={t('assistant.documents.table')}>
        <p className={styles.intro}>{t('assistant.documents.intro')}</p>
        <Stats />
        <div className={styles.toolbar}>
          <UploadButton />
          <Input.Search
            style={{ width: 260 }}
            allowClear
            aria-label={t('assistant.documents.search')}
            placeholder={t('assistant.documents.search')}
            value={name}
            onChange={setName}
            onSearch={(value) =>
              change((next) => {
                if (value.trim()) {
                  next.set('name', value.trim());
                } else {
                  next.delete('name');
                }
                next.delete('page');
                return next;
              })
            }
          />
        </div>
        <ListTable
          label={t('assistant.documents.table')}
          query={documents}
          columns={columns}
          page={page}
          pageSize={pageSize}
          onPage={(p, size) => change((next) => (next.set('page', String(p)), next.set('pageSize', String(size)), next))}
          emptyText={t('assistant.documents.empty')}
        />
      </Panel>
      {docId > 0 && <DocumentView id={docId} seq={seq} onClose={() => change((next) => (next.delete('doc'), next.delete('seq'), next))} />}
    </>
  );
}
