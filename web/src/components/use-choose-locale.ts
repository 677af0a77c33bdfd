import { useTranslation } from 'react-i18next';
import { changeLocale, LOCALES } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';

/** Switches the language; the confirmation names the new choice, in it, and only on a real change. */
export function useChooseLocale(): (value: string) => Promise<void> {
  const { t } = useTranslation();
  return async (value) => {
    if (await changeLocale(value)) {
      const name = LOCALES.find((locale) => locale.value === value)?.label ?? value;
      notifySuccess(t('navbar.locale.switched', { name, lng: value }));
    }
  };
}
