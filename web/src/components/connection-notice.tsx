import { useTranslation } from 'react-i18next';
import { useOnline } from '@/lib/connection';
import { useConsoleUpdate } from '@/lib/service-worker';
import styles from './connection-notice.module.css';

/**
 * A bar at the foot of every screen while the console cannot reach its server (the console
 * opened from its cache, or lost the network on the way), and when a newer console took over this page's
 * service worker, with a button to load it. Plain elements: it is part of every screen's
 * first code, before Arco's components have loaded.
 */
export function ConnectionNotice() {
  const { t } = useTranslation();
  const online = useOnline();
  const update = useConsoleUpdate((state) => state.ready);
  if (online && !update) {
    return null;
  }
  return (
    <div className={styles.bar} role="status" data-state={online ? 'update' : 'offline'}>
      {online ? (
        <>
          <span>{t('offline.update')}</span>
          <button type="button" className={styles.action} onClick={() => window.location.reload()}>
            {t('offline.reload')}
          </button>
        </>
      ) : (
        <span>{t('offline.notice')}</span>
      )}
    </div>
  );
}
