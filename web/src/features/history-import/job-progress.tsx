import Progress from '@arco-design/web-react/es/Progress';
import '@arco-design/web-react/es/Progress/style/css.js';
import { percent } from './format';
import styles from './history-import.module.css';

/** A progress bar with its percentage always written out (Arco's swaps 100 % for an icon) and exposed as a progressbar. */
export function JobProgress({ fraction, label, failed = false, small = false }: { fraction: number | undefined; label: string; failed?: boolean; small?: boolean }) {
  const value = percent(fraction);
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value} className={styles.progress}>
      <Progress percent={value} size={small ? 'small' : 'default'} status={failed ? 'error' : 'normal'} formatText={(p: number) => `${p}%`} />
    </div>
  );
}
