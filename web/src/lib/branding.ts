import { useTranslation } from 'react-i18next';
import { VARIANT } from './env';

/** The brand shown in the navbar, on the login page and as the document title. */
export function useAppTitle(): string {
  const { t } = useTranslation();
  return VARIANT === 'intranet' ? t('app.title.intranet') : 'Helio';
}
