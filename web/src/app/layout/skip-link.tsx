import { type MouseEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './skip-link.module.css';

export const MAIN_ID = 'main-content';

/**
 * The first stop of the keyboard: "Skip to content" moves the focus past the navbar and the menu
 * to the page. Hidden until focused. The address uses the hash for routes, so the link moves the
 * focus itself instead of following "#main-content".
 *
 * When the shell appears with the focus nowhere (after signing in, the focused password field is
 * gone), the browser would go on from wherever that field was, which depends on how the page was
 * drawn: the focus is put just before the link, so the next Tab always reaches it.
 */
export function SkipLink({ target }: { target: string }) {
  const { t } = useTranslation();
  const start = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) {
      start.current?.focus({ preventScroll: true });
    }
  }, []);
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const main = document.getElementById(target);
    main?.focus();
    main?.scrollIntoView({ block: 'start' });
  };
  return (
    <>
      <span ref={start} className={styles.start} tabIndex={-1} data-testid="keyboard-start" />
      <a className={styles.skip} href={`#${target}`} onClick={skip}>
        {t('app.skipToContent')}
      </a>
    </>
  );
}
