import Spin from '@arco-design/web-react/es/Spin';
import '@arco-design/web-react/es/Spin/style/css.js';
import { useTranslation } from 'react-i18next';
import styles from './page-loading.module.css';

/** Shown while the signed-in user's profile is fetched, before the shell can be drawn. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className={styles.wrap} role="status">
      <Spin tip={t('common.loading')} />
    </div>
  );
}
