import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { progress } from '@/components/progress-bar';

/** On every navigation: run the loading bar once and scroll back to the top (SPEC.md section 2). */
export function useRouteEffects(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
    progress.start();
    let finished = false;
    const finish = () => {
      if (!finished) {
        finished = true;
        progress.done();
      }
    };
    const frame = window.requestAnimationFrame(finish);
    return () => {
      window.cancelAnimationFrame(frame);
      finish();
    };
  }, [pathname]);
}
