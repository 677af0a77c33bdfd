import Radio from '@arco-design/web-react/es/Radio';
import '@arco-design/web-react/es/Radio/style/css.js';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { useChooseLocale } from '@/components/use-choose-locale';
import { LOCALES } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import styles from './configuration.module.css';
import { type Location, LOCATIONS, useLocationStore } from './location-store';
import { useSettingsStore } from './settings-store';

/** Language, location and theme (kept on the server with the page settings: server-settings.ts). */
export function Configuration() {
  const { t, i18n } = useTranslation();
  const choose = useChooseLocale();
  const location = useLocationStore((s) => s.location);
  const setLocation = useLocationStore((s) => s.setLocation);
  const theme = useSettingsStore((s) => s.theme);
  const update = useSettingsStore((s) => s.update);
  const row = (label: string, control: React.ReactNode) => (
    <div className={styles.configRow}>
      <span className={styles.configLabel}>{label}</span>
      {control}
    </div>
  );
  return (
    <div className={styles.form}>
      {row(
        t('user.field.language'),
        <LabelledSelect label={t('user.field.language')} className={styles.configSelect} value={i18n.language} onChange={(v: string) => void choose(v)}>
          {LOCALES.map((l) => (
            <Option key={l.value} value={l.value}>
              {l.label}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {row(
        t('navbar.location'),
        <LabelledSelect
          label={t('navbar.location')}
          className={styles.configSelect}
          value={location}
          onChange={(v: string) => {
            if (setLocation(v as Location)) {
              notifySuccess(t('navbar.location.switched', { name: t(`location.${v}`) }));
            }
          }}
        >
          {LOCATIONS.map((code) => (
            <Option key={code} value={code}>
              {t(`location.${code}`)}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {row(
        t('user.field.theme'),
        <Radio.Group type="button" value={theme} onChange={(v: 'light' | 'dark') => update({ theme: v })} aria-label={t('user.field.theme')}>
          <Radio value="light">{t('theme.light')}</Radio>
          <Radio value="dark">{t('theme.dark')}</Radio>
        </Radio.Group>,
      )}
    </div>
  );
}
