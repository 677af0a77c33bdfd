import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Empty from '@arco-design/web-react/es/Empty';
import '@arco-design/web-react/es/Empty/style/css.js';
import Spin from '@arco-design/web-react/es/Spin';
import '@arco-design/web-react/es/Spin/style/css.js';
import { IconExclamationCircle } from '@arco-design/web-react/icon';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '@/lib/connection';
import styles from './data-state.module.css';

export interface DataStateProps {
  loading?: boolean;
  error?: boolean;
  empty?: boolean;
  /** Shown when empty; defaults to "No data". */
  emptyText?: ReactNode;
  onRetry?: () => void;
  minHeight?: number | string;
  children?: ReactNode;
}

/**
 * The loading, error and empty states every widget fed by the server has. The children are
 * drawn only when there is something to show.
 */
export function DataState({ loading, error, empty, emptyText, onRetry, minHeight, children }: DataStateProps) {
  const { t } = useTranslation();
  const online = useOnline();
  const style: CSSProperties | undefined = minHeight === undefined ? undefined : { minHeight };
  if (loading || (error && !online)) {
    // offline, a query waits for the network (and one that failed runs again when it returns)
    return (
      <div className={styles.state} style={style} role="status" aria-live="polite">
        {online && <Spin />}
        <span>{t(online ? 'common.loading' : 'offline.waiting')}</span>
      </div>
    );
  }
  if (error) {
    return (
      <div className={`${styles.state} ${styles.error}`} style={style} role="alert">
        <IconExclamationCircle className={styles.errorIcon} aria-hidden />
        <span>{t('state.error')}</span>
        {onRetry && (
          <Button size="mini" onClick={onRetry}>
            {t('state.retry')}
          </Button>
        )}
      </div>
    );
  }
  if (empty) {
    return (
      <div className={styles.state} style={style}>
        <Empty description={emptyText ?? t('state.empty')} />
      </div>
    );
  }
  return <>{children}</>;
}
