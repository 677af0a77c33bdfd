import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './skip-link.module.css';

export const MAIN_ID = 'main-content';

/**
 * The first stop of the keyboard: "Skip to content" moves the focus past the navbar and the menu
 * to the page. Hidden until focused. The address uses the hash for routes, so the link moves the
 * focus itself instead of following "#main-content".
 */
export function SkipLink({ target }: { target: string }) {
  const { t } = useTranslation();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const main = document.getElementById(target);
    main?.focus();
    main?.scrollIntoView({ block: 'start' });
  };
  return (
    <a className={styles.skip} href={`#${target}`} onClick={skip}>
      {t('app.skipToContent')}
    </a>
  );
}
