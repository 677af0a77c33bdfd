import { useTranslation } from 'react-i18next';
import { LOCALES } from '@/lib/i18n';
import styles from './locale-links.module.css';
import { useChooseLocale } from './use-choose-locale';

/** The same choice as a row of plain links, light enough for the login page. */
export function LocaleLinks() {
  const { t, i18n } = useTranslation();
  const choose = useChooseLocale();
  return (
    <nav aria-label={t('navbar.language')}>
      <ul className={styles.links}>
        {LOCALES.map((locale) => (
          <li key={locale.value}>
            <button
              type="button"
              lang={locale.value}
              className={styles.link}
              aria-current={i18n.language === locale.value ? 'true' : undefined}
              onClick={() => void choose(locale.value)}
            >
              {locale.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
