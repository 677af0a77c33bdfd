import Tabs from '@arco-design/web-react/es/Tabs';
import '@arco-design/web-react/es/Tabs/style/css.js';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { PageHeader } from '@/components/panel';
import { useQueryParams } from '@/lib/use-query-params';
import styles from './analysis.module.css';
import { CompareTab } from './compare-tab';
import { OverviewTab } from './overview-tab';
import { ReportsTab } from './reports-tab';
import { analysisTexts } from './texts';

export type AnalysisTab = 'overview' | 'compare' | 'reports';

/** The tab the address names (the overview by default). */
export function tabOf(params: URLSearchParams): AnalysisTab {
  const tab = params.get('tab');
  return tab === 'compare' || tab === 'reports' ? tab : 'overview';
}

/** Starts loading the screen's texts as soon as the page's code arrives. */
export function prefetch(): void {
  void analysisTexts.ready().catch(() => undefined);
}

/** Data analysis: the data overview (KPIs with their formulas), comparisons and reports. */
export function AnalysisPage() {
  const { t } = useTranslation();
  const ready = analysisTexts.useReady();
  const [params, setParams] = useQueryParams();
  const tab = tabOf(params);
  return (
    <>
      <PageHeader title={t('menu.analysis')} />
      {!ready ? (
        <DataState loading minHeight={320} />
      ) : (
        <div className={styles.page}>
          <Tabs
            activeTab={tab}
            lazyload
            onChange={(key) =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                if (key === 'overview') {
                  next.delete('tab');
                } else {
                  next.set('tab', key);
                }
                return next;
              })
            }
          >
            <Tabs.TabPane key="overview" title={t('analysis.tab.overview')}>
              <OverviewTab />
            </Tabs.TabPane>
            <Tabs.TabPane key="compare" title={t('analysis.tab.compare')}>
              <CompareTab />
            </Tabs.TabPane>
            <Tabs.TabPane key="reports" title={t('analysis.tab.reports')}>
              <ReportsTab />
            </Tabs.TabPane>
          </Tabs>
        </div>
      )}
    </>
  );
}
