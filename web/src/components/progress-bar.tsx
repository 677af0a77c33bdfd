import { useEffect, useState } from 'react';
import { create } from 'zustand';
import styles from './progress-bar.module.css';

const useProgressStore = create<{ pending: number }>(() => ({ pending: 0 }));

/** A thin loading bar across the top of the page, without a spinner. */
export const progress = {
  start(): void {
    useProgressStore.setState((state) => ({ pending: state.pending + 1 }));
  },
  done(): void {
    useProgressStore.setState((state) => ({ pending: Math.max(0, state.pending - 1) }));
  },
};

type Phase = 'idle' | 'loading' | 'finishing';

export function ProgressBar() {
  const pending = useProgressStore((state) => state.pending);
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (pending > 0) {
      setPhase('loading');
      return undefined;
    }
    setPhase((current) => (current === 'idle' ? 'idle' : 'finishing'));
    const timer = window.setTimeout(() => setPhase('idle'), 400);
    return () => window.clearTimeout(timer);
  }, [pending]);

  return <div className={`${styles.bar} ${styles[phase]}`} aria-hidden="true" data-phase={phase} />;
}

/** Suspense fallback for lazily loaded pages: keeps the bar running while the chunk loads. */
export function ProgressFallback() {
  useEffect(() => {
    progress.start();
    return () => progress.done();
  }, []);
  return null;
}
