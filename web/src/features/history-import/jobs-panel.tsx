import Button from '@arco-design/web-react/es/Button';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { formatNumber, zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import { isActive, type Job, type JobAction, jobQuery, jobsQuery, useJobAction } from './api';
import styles from './history-import.module.css';
import { JobProgress } from './job-progress';

const STATE_COLORS: Record<string, string> = { queued: 'gray', running: 'arcoblue', paused: 'orange', done: 'green', failed: 'red', cancelled: 'gray' };

/** The organisation's jobs; those queued or running follow their status every 2 s. */
export function JobsPanel({ onReport, reportId }: { onReport: (id: number) => void; reportId: number | null }) {
  const { t } = useTranslation();
  const list = useQuery(jobsQuery);
  const act = useJobAction();
  const activeIds = useMemo(() => (list.data ?? []).filter(isActive).map((j) => j.id ?? 0), [list.data]);
  const live = useQueries({ queries: activeIds.map((id) => jobQuery(id)) });
  const fresh = new Map(live.flatMap((q) => (q.data?.id === undefined ? [] : [[q.data.id, q.data] as const])));
  const jobs = (list.data ?? []).map((j) => fresh.get(j.id ?? 0) ?? j);
  // a job that has stopped moving: the list learns its final state
  const settled = jobs.filter((j) => activeIds.includes(j.id ?? 0) && !isActive(j)).length;
  const seen = useRef(0);
  useEffect(() => {
    if (settled > seen.current) void queryClient.invalidateQueries({ queryKey: jobsQuery.queryKey });
    seen.current = settled;
  }, [settled]);

  const run = (job: Job, action: JobAction) =>
    act.mutateAsync({ jobId: job.id ?? 0, action }).catch((err: unknown) => notifyError(err instanceof Error ? err.message : String(err)));

  const columns: FitColumn<Job>[] = [
    { title: t('historyImport.col.job'), dataIndex: 'id', width: 56, render: (id: number) => `#${id}` },
    { title: t('historyImport.col.kind'), dataIndex: 'dry', width: 84, render: (dry: boolean) => t(dry ? 'historyImport.dryRun' : 'historyImport.import') },
    {
      title: t('historyImport.col.files'),
      dataIndex: 'files',
      ellipsis: true,
      render: (files: Job['files']) => (files ?? []).map((f) => f.name).join(', '),
    },
    {
      title: t('historyImport.col.state'),
      dataIndex: 'state',
      width: 96,
      render: (s: string) => <Tag color={STATE_COLORS[s] ?? 'gray'}>{t(`historyImport.state.${s}`)}</Tag>,
    },
    {
      title: t('historyImport.col.progress'),
      width: 140,
      render: (_: unknown, j: Job) => (
        <JobProgress small fraction={j.state === 'done' ? 1 : j.progress} failed={j.state === 'failed'} label={t('historyImport.progressOf', { id: j.id })} />
      ),
    },
    { title: t('historyImport.col.rows'), width: 80, align: 'right', render: (_: unknown, j: Job) => formatNumber(j.report?.rows ?? 0, 0) },
    {
      title: t('historyImport.col.errors'),
      width: 100,
      ellipsis: true,
      render: (_: unknown, j: Job) => (
        <span className={j.error || j.report?.rejectedRows ? styles.bad : styles.muted}>
          {j.error || formatNumber(j.report?.rejectedRows ?? 0, 0)}
        </span>
      ),
    },
    {
      title: t('historyImport.col.updatedAt'),
      dataIndex: 'updatedAt',
      width: 160,
      render: (v: string) => zonedTime(v, undefined, currentLocale()).text,
    },
    {
      title: t('historyImport.col.actions'), phone: 'actions',
      width: 180,
      render: (_: unknown, j: Job) => (
        <span className={styles.actions}>
          {isActive(j) && (
            <Button size="mini" onClick={() => void run(j, 'pause')} aria-label={t('historyImport.pauseNamed', { id: j.id })}>
              {t('historyImport.pause')}
            </Button>
          )}
          {j.state === 'paused' && (
            <Button size="mini" onClick={() => void run(j, 'resume')} aria-label={t('historyImport.resumeNamed', { id: j.id })}>
              {t('historyImport.resume')}
            </Button>
          )}
          {(isActive(j) || j.state === 'paused') && (
            <Popconfirm title={t('historyImport.cancelConfirm', { id: j.id })} onOk={() => void run(j, 'cancel')}>
              <Button size="mini" status="danger" aria-label={t('historyImport.cancelNamed', { id: j.id })}>
                {t('historyImport.cancel')}
              </Button>
            </Popconfirm>
          )}
          <Button
            size="mini"
            type={reportId === j.id ? 'primary' : 'secondary'}
            onClick={() => onReport(j.id ?? 0)}
            aria-label={t('historyImport.reportNamed', { id: j.id })}
          >
            {t('historyImport.report')}
          </Button>
        </span>
      ),
    },
  ];
  return (
    <DataState
      loading={list.isPending}
      error={list.isError}
      onRetry={() => void list.refetch()}
      empty={jobs.length === 0}
      emptyText={t('historyImport.noJobs')}
      minHeight={120}
    >
      <CardTable label={t('historyImport.jobs')} rowKey="id" columns={columns} data={jobs} pagination={{ pageSize: 10, hideOnSinglePage: true }} border={false} scroll={{ x: 960 }} />
    </DataState>
  );
}
