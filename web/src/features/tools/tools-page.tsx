import Spin from '@arco-design/web-react/es/Spin';
import '@arco-design/web-react/es/Spin/style/css.js';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/panel';
import { CO2Panel } from './co2-panel';
import { StringPanel } from './string-panel';
import { toolsTexts } from './texts';
import styles from './tools.module.css';
import { YieldPanel } from './yield-panel';

/** Tools: the yield estimator, the string sizing check and the grid CO₂ factors. */
export function ToolsPage() {
  const { t } = useTranslation();
  const ready = toolsTexts.useReady();
  return (
    <>
      <PageHeader title={t('menu.tools')} />
      {ready ? (
        <div className={styles.page}>
          <YieldPanel />
          <StringPanel />
          <CO2Panel />
        </div>
      ) : (
        <Spin />
      )}
    </>
  );
}
