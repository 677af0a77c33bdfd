import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import styles from './analysis.module.css';
import { useParameters } from './api/reports';
import { ReportForm } from './report-form';
import { RecordList, ReportTemplateList } from './report-lists';

/** Reports: the form, the caller's reports (progress and downloads) and the report templates. */
export function ReportsTab() {
  const { t, i18n } = useTranslation();
  const parameters = useParameters();
  return (
    <DataState loading={parameters.isPending} error={parameters.isError} onRetry={() => void parameters.refetch()} minHeight={320}>
      {parameters.data && (
        <>
          <ReportForm parameters={parameters.data} language={i18n.language} />
          <div className={styles.columns}>
            <div>
              <h2 className={styles.section}>{t('analysis.report.records')}</h2>
              <RecordList />
            </div>
            <div>
              <h2 className={styles.section}>{t('analysis.report.templates')}</h2>
              <ReportTemplateList />
            </div>
          </div>
        </>
      )}
    </DataState>
  );
}
