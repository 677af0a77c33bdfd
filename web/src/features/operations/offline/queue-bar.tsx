import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { showDetail, type WorkOrderDetail } from '../api/work-orders';
import styles from '../operations.module.css';
import { dismiss, flush, useOfflineQueue } from './queue';

/** While actions wait and the phone says it is online, how often they are tried again. */
export const RETRY_MS = 30_000;

function online(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function subscribeOnline(l: () => void): () => void {
  window.addEventListener('online', l);
  window.addEventListener('offline', l);
  return () => {
    window.removeEventListener('online', l);
    window.removeEventListener('offline', l);
  };
}

/** Sends what waits, showing each answer. */
export function sendQueued(): Promise<number> {
  return flush((_, answer) => {
    if (answer && typeof answer === 'object' && 'id' in answer) showDetail(answer as WorkOrderDetail);
  });
}

/**
 * The work orders' offline queue: the actions waiting to be sent (sent by
 * themselves when the network returns, or at once with "Send now"), and the actions the server
 * refused meanwhile (someone else moved the order), each with the server's words until read.
 */
export function QueueBar() {
  const { t } = useTranslation();
  const { queue, refused, sending } = useOfflineQueue();
  const isOnline = useSyncExternalStore(subscribeOnline, online);
  useEffect(() => {
    if (isOnline) void sendQueued();
  }, [isOnline]);
  // "online" can come before the link carries anything (a weak signal, a captive portal, coverage
  // back a moment later): a send that could not reach the server is tried again, not left waiting
  // for the next "online" or a tap on "Send now"
  const waiting = queue.length > 0;
  useEffect(() => {
    if (!isOnline || !waiting) return undefined;
    const timer = window.setInterval(() => void sendQueued(), RETRY_MS);
    return () => window.clearInterval(timer);
  }, [isOnline, waiting]);
  return (
    <div className={styles.queue} aria-live="polite">
      {/* offline itself is said once, by the bar at the foot of every screen (ConnectionNotice) */}
      {queue.length > 0 && (
        <Alert
          type={isOnline ? 'info' : 'warning'}
          data-testid="offline-queue"
          content={t('ops.queue.waiting', { count: queue.length })}
          action={
            isOnline ? (
              <Button size="small" loading={sending} onClick={() => void sendQueued()}>
                {t('ops.queue.send')}
              </Button>
            ) : undefined
          }
        />
      )}
      {refused.map((r) => (
        <Alert
          key={r.key}
          type="error"
          data-testid="offline-refused"
          content={t('ops.queue.refused', { number: r.number, what: t(`ops.queue.what.${r.what}`), message: r.message })}
          action={
            <Button size="small" onClick={() => dismiss(r.key)}>
              {t('ops.queue.dismiss')}
            </Button>
          }
        />
      ))}
    </div>
  );
}
