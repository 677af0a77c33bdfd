import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconSettings } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import styles from './settings-button.module.css';
import { useSettingsStore } from './settings-store';

/** Floating entry to the settings drawer, for when the navbar (and its settings icon) is hidden. */
export function FloatingSettingsButton() {
  const { t } = useTranslation();
  const navbar = useSettingsStore((state) => state.navbar);
  const setDrawerOpen = useSettingsStore((state) => state.setDrawerOpen);
  if (navbar) {
    return null;
  }
  return (
    <Button
      className={styles.floating}
      type="primary"
      shape="square"
      size="large"
      icon={<IconSettings />}
      aria-label={t('settings.open')}
      title={t('settings.open')}
      onClick={() => setDrawerOpen(true)}
    />
  );
}
