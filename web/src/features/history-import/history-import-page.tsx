import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type JobRequest, type Mapping, useStartJob } from './api';
import { JobReport } from './dry-run-report';
import styles from './history-import.module.css';
import { JobsPanel } from './jobs-panel';
import { MappingPanel } from './mapping-panel';
import { historyImportTexts } from './texts';
import { UploadPanel } from './upload-panel';

/**
 * History import (administrators): upload vendor portals' CSV/XLSX exports, check the detected
 * mapping against the first rows, dry run it, then import it as a job to follow, pause or cancel.
 */
export function HistoryImportPage() {
  const { t } = useTranslation();
  const ready = historyImportTexts.useReady();
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [devices, setDevices] = useState<Record<number, string>>({});
  const [reportId, setReportId] = useState<number | null>(null);
  const dryRun = useStartJob(true);
  const start = useStartJob(false);

  const preview = (id: number) => {
    if (id !== previewId) {
      setPreviewId(id);
      setMapping(null);
    }
    setChosen((c) => (c.includes(id) ? c : [...c, id]));
  };
  const deleted = (id: number) => {
    setChosen((c) => c.filter((x) => x !== id));
    if (id === previewId) {
      setPreviewId(null);
      setMapping(null);
    }
  };
  const request = (): JobRequest | null =>
    mapping && chosen.length > 0
      ? { mapping, files: chosen.map((fileId) => ({ fileId, device: mapping.deviceColumn ? '' : (devices[fileId] ?? '') })) }
      : null;
  const launch = (dry: boolean) => {
    const body = request();
    if (!body) return;
    (dry ? dryRun : start).mutateAsync(body).then(
      (job) => {
        setReportId(job.id ?? null);
        notifySuccess(t(dry ? 'historyImport.dryRunStarted' : 'historyImport.importStarted', { id: job.id }));
      },
      (err: unknown) => notifyError(err instanceof Error ? err.message : String(err)),
    );
  };

  if (!ready) {
    return <DataState loading minHeight={320} />;
  }
  const canRun = request() !== null;
  return (
    <div className={styles.page}>
      <PageHeader title={t('menu.permission.historyImport')} />
      <Panel title={t('historyImport.files')}>
        <p className={styles.intro}>
          {t('historyImport.intro')}{' '}
          <Link to="/permission/ingest-keys" className={styles.link}>
            {t('historyImport.otherDoors')}
          </Link>
        </p>
        <UploadPanel chosen={chosen} onChosen={setChosen} previewId={previewId} onPreview={preview} onDeleted={deleted} />
      </Panel>
      <Panel title={t('historyImport.mapping')}>
        {previewId === null ? (
          <DataState empty emptyText={t('historyImport.choosePreview')} minHeight={120} />
        ) : (
          <MappingPanel
            key={previewId}
            previewId={previewId}
            mapping={mapping}
            onMapping={setMapping}
            chosen={chosen}
            devices={devices}
            onDevices={setDevices}
          />
        )}
      </Panel>
      <Panel
        title={t('historyImport.run')}
        extra={
          <span className={styles.actions}>
            <Button disabled={!canRun} loading={dryRun.isPending} onClick={() => launch(true)}>
              {t('historyImport.startDryRun')}
            </Button>
            <Button type="primary" disabled={!canRun} loading={start.isPending} onClick={() => launch(false)}>
              {t('historyImport.startImport')}
            </Button>
          </span>
        }
      >
        <p className={styles.hint}>{t('historyImport.runHint', { n: chosen.length })}</p>
        {reportId === null ? (
          <DataState empty emptyText={t('historyImport.noReport')} minHeight={100} />
        ) : (
          <JobReport jobId={reportId} />
        )}
      </Panel>
      <Panel title={t('historyImport.jobs')}>
        <JobsPanel reportId={reportId} onReport={setReportId} />
      </Panel>
    </div>
  );
}
