import Alert from '@arco-design/web-react/es/Alert';
import '@arco-design/web-react/es/Alert/style/css.js';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { PlainTable } from '@/components/plain-table';
import table from '@/components/plain-table.module.css';
import { formatNumber } from '@/lib/format';
import { isActive, jobQuery, REJECT_REASONS, type Report } from './api';
import styles from './history-import.module.css';
import { JobProgress } from './job-progress';

/** A reject reason in words where the report names one the console knows, else as the server wrote it. */
export function reasonText(t: TFunction, reason: string | undefined): string {
  return (REJECT_REASONS as readonly string[]).includes(reason ?? '') ? t(`historyImport.reason.${reason}`) : (reason ?? '');
}

const count = (n: number | undefined) => formatNumber(n ?? 0, 0);

/** A job's report: what was (or would be) stored, found already there, or rejected, and why. */
export function JobReport({ jobId }: { jobId: number }) {
  const { t } = useTranslation();
  const job = useQuery(jobQuery(jobId));
  const data = job.data;
  const report: Partial<Report> = data?.report ?? {};
  const rejects = report.rejects ?? [];
  const reasons = Object.entries(report.reasons ?? {}).sort((a, b) => b[1] - a[1]);
  const tiles: [string, number | undefined, string?][] = data?.dry
    ? [
        ['rows', report.rows],
        ['stored', report.stored, styles.good],
        ['overlapping', (report.overlapping ?? 0) + (report.duplicates ?? 0) + (report.conflicts ?? 0)],
        ['skipped', report.skipped],
        ['rejected', report.rejectedRows, report.rejectedRows ? styles.bad : undefined],
      ]
    : [
        ['rows', report.rows],
        ['stored', report.stored, styles.good],
        ['duplicates', report.duplicates],
        ['conflicts', report.conflicts],
        ['skipped', report.skipped],
        ['rejected', report.rejectedRows, report.rejectedRows ? styles.bad : undefined],
      ];
  return (
    <DataState loading={job.isPending} error={job.isError} onRetry={() => void job.refetch()} minHeight={120}>
      {data && (
        <div className={styles.report} aria-label={t('historyImport.reportOf', { id: jobId })}>
          <p className={styles.hint}>
            {t(data.dry ? 'historyImport.dryRunNo' : 'historyImport.importNo', { id: jobId })} · {t(`historyImport.state.${data.state ?? 'queued'}`)}
          </p>
          {isActive(data) && (
            <JobProgress fraction={data.progress} label={t('historyImport.progressOf', { id: jobId })} />
          )}
          {data.state === 'failed' && <Alert type="error" content={data.error || t('historyImport.state.failed')} className={styles.alert} />}
          <dl className={styles.tiles}>
            {tiles.map(([key, value, tone]) => (
              <div key={key} className={styles.tile}>
                <dt>{t(`historyImport.count.${key}`)}</dt>
                <dd className={tone}>{count(value)}</dd>
              </div>
            ))}
          </dl>
          {reasons.length > 0 && (
            <>
              <h3 className={styles.subhead}>{t('historyImport.perReason')}</h3>
              <ul className={styles.reasons}>
                {reasons.map(([reason, n]) => (
                  <li key={reason}>
                    <span>{reasonText(t, reason)}</span>
                    <span className={styles.num}>{count(n)}</span>
                  </li>
                ))}
              </ul>
              <h3 className={styles.subhead}>{t('historyImport.rejectedRows', { n: rejects.length })}</h3>
              <div role="region" aria-label={t('historyImport.rejectedRows', { n: rejects.length })} tabIndex={0} className={`${styles.scroll} ${styles.rejects}`}>
                <PlainTable>
                  <thead>
                    <tr>
                      <th scope="col">{t('historyImport.col.file')}</th>
                      <th scope="col" className={table.num}>
                        {t('historyImport.col.row')}
                      </th>
                      <th scope="col">{t('historyImport.col.column')}</th>
                      <th scope="col">{t('historyImport.col.reason')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rejects.map((r) => (
                      <tr key={`${r.file ?? ''}:${r.row ?? 0}:${r.column ?? ''}`}>
                        <td>{r.file}</td>
                        <td className={table.num}>{r.row}</td>
                        <td>{r.column}</td>
                        <td>{reasonText(t, r.reason)}</td>
                      </tr>
                    ))}
                  </tbody>
                </PlainTable>
              </div>
            </>
          )}
        </div>
      )}
    </DataState>
  );
}
