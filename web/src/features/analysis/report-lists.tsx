import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Progress from '@arco-design/web-react/es/Progress';
import '@arco-design/web-react/es/Progress/style/css.js';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { downloadFile } from '@/lib/download';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import styles from './analysis.module.css';
import { useDeleteReportTemplate, useRecords, useReportTemplates, useRunReportTemplate } from './api/reports';

/** The caller's reports with their rendering progress (followed while any renders) and downloads. */
export function RecordList() {
  const { t } = useTranslation();
  const records = useRecords();
  return (
    <DataState loading={records.isPending} error={records.isError && !records.data} empty={records.data?.list.length === 0} emptyText={t('analysis.report.noRecords')} onRetry={() => void records.refetch()} minHeight={120}>
      <table className={styles.table} aria-label={t('analysis.report.records')}>
        <thead>
          <tr>
            <th>{t('analysis.report.name')}</th>
            <th>{t('analysis.report.format')}</th>
            <th>{t('analysis.report.language')}</th>
            <th>{t('analysis.report.created')}</th>
            <th>{t('analysis.report.status')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {records.data?.list.map((r) => (
            <tr key={r.id} data-record={r.id} data-status={r.status}>
              <td>
                {r.name}
                {r.scheduled && <span className={styles.muted}> · {t('analysis.report.scheduled')}</span>}
              </td>
              <td>{r.params.format.toUpperCase()}</td>
              <td>{t(`analysis.language.${r.params.language}`)}</td>
              <td>{zonedTime(r.createTime, undefined, currentLocale()).text}</td>
              <td style={{ minWidth: 160 }}>
                {r.status === 'running' || r.status === 'queued' ? (
                  <Progress percent={Math.round(r.progress * 100)} size="small" aria-label={t(`analysis.report.status.${r.status}`)} />
                ) : (
                  <span title={r.error}>{t(`analysis.report.status.${r.status}`)}</span>
                )}
              </td>
              <td>
                {r.status === 'done' && (
                  <Button
                    size="mini"
                    aria-label={t('analysis.report.downloadName', { name: r.fileName })}
                    onClick={() => void downloadFile(`/v2/report/record/download/${r.id}`, {}, r.fileName).then((name) => notifySuccess(t('analysis.report.downloaded', { name }))).catch(() => undefined)}
                  >
                    {t('analysis.report.download')}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </DataState>
  );
}

/** Report templates: run one now (it arrives in the message centre) or delete one. */
export function ReportTemplateList() {
  const { t } = useTranslation();
  const templates = useReportTemplates();
  const run = useRunReportTemplate();
  const remove = useDeleteReportTemplate();
  return (
    <DataState loading={templates.isPending} error={templates.isError && !templates.data} empty={templates.data?.list.length === 0} emptyText={t('analysis.template.none')} onRetry={() => void templates.refetch()} minHeight={120}>
      <table className={styles.table} aria-label={t('analysis.report.templates')}>
        <tbody>
          {templates.data?.list.map((tpl) => (
            <tr key={tpl.id}>
              <td>
                {tpl.name}
                <span className={styles.muted}>
                  {' · '}
                  {t(`analysis.schedule.${tpl.config.schedule.frequency || 'none'}`)}
                  {tpl.shared && ` · ${t('analysis.template.sharedBy', { owner: tpl.owner })}`}
                </span>
              </td>
              <td className={styles.actions}>
                <Button size="mini" aria-label={t('analysis.template.runName', { name: tpl.name })} loading={run.isPending && run.variables === tpl.id} onClick={() => run.mutate(tpl.id, { onSuccess: () => notifySuccess(t('analysis.template.ran')) })}>
                  {t('analysis.template.run')}
                </Button>
                {tpl.mine && (
                  <Button size="mini" status="danger" onClick={() => remove.mutate(tpl.id)}>
                    {t('analysis.template.delete')}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </DataState>
  );
}
