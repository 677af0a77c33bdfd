import Progress from '@arco-design/web-react/es/Progress';
import '@arco-design/web-react/es/Progress/style/css.js';
import { useLayoutEffect, useRef } from 'react';
import { percent } from './format';
import styles from './history-import.module.css';

/**
 * A progress bar with its percentage always written out (Arco's swaps 100 % for an icon); Arco's
 * own progressbar (which carries the value) is given the name.
 */
export function JobProgress({ fraction, label, failed = false, small = false }: { fraction: number | undefined; label: string; failed?: boolean; small?: boolean }) {
  const value = percent(fraction);
  const wrap = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    wrap.current?.querySelector('[role="progressbar"]')?.setAttribute('aria-label', label);
  });
  return (
    <div ref={wrap} className={styles.progress}>
      <Progress percent={value} size={small ? 'small' : 'default'} status={failed ? 'error' : 'normal'} formatText={(p: number) => `${p}%`} />
    </div>
  );
}
