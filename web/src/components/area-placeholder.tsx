import Empty from '@arco-design/web-react/es/Empty';
import '@arco-design/web-react/es/Empty/style/css.js';
import { useTranslation } from 'react-i18next';
import styles from './area-placeholder.module.css';

interface AreaPlaceholderProps {
  /** i18n key of the area's name, e.g. "menu.station". */
  titleKey: string;
}

/** The honest state of a console area whose screens are not built yet: no sample numbers. */
export function AreaPlaceholder({ titleKey }: AreaPlaceholderProps) {
  const { t } = useTranslation();
  return (
    <section className={styles.panel} aria-labelledby="area-title">
      <h1 id="area-title" className={styles.title}>
        {t(titleKey)}
      </h1>
      <Empty description={t('area.notAvailable')} />
      <p className={styles.note}>{t('area.notAvailable.note')}</p>
    </section>
  );
}
