import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import ColorPicker from '@arco-design/web-react/es/ColorPicker';
import Drawer from '@arco-design/web-react/es/Drawer';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import Switch from '@arco-design/web-react/es/Switch';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/ColorPicker/style/css.js';
import '@arco-design/web-react/es/Drawer/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Message/style/css.js';
import '@arco-design/web-react/es/Switch/style/css.js';
import { useTranslation } from 'react-i18next';
import { serverMenuQuery } from '@/lib/menu';
import { notifyError, notifySuccess } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import styles from './settings-drawer.module.css';
import {
  MENU_WIDTH_MAX,
  MENU_WIDTH_MIN,
  pickSettings,
  type ToggleKey,
  useSettingsStore,
} from './settings-store';

/** Drawer width and the menu-width input's width (SPEC.md section 9). */
export const DRAWER_WIDTH = 300;
const MENU_WIDTH_INPUT = 80;

const CONTENT_TOGGLES: ToggleKey[] = ['navbar', 'menu', 'topMenu', 'footer', 'tabBar', 'menuFromServer'];

/** Loads the server menu with notices for loading, success and error (SPEC.md section 8). */
async function loadServerMenu(t: (key: string) => string): Promise<void> {
  const id = 'server-menu';
  Message.loading({ id, content: t('menu.server.loading'), duration: 0 });
  try {
    await queryClient.fetchQuery(serverMenuQuery);
    Message.success({ id, content: t('menu.server.success'), duration: 3000 });
  } catch {
    Message.error({ id, content: t('menu.server.error'), duration: 5000 });
  }
}

function ToggleRow({ name }: { name: ToggleKey }) {
  const { t } = useTranslation();
  const checked = useSettingsStore((state) => state[name]);
  const toggle = useSettingsStore((state) => state.toggle);
  const label = t(`settings.${name}`);
  return (
    <div className={styles.row}>
      <span>{label}</span>
      <Switch
        size="small"
        checked={checked}
        aria-label={label}
        onChange={() => {
          toggle(name);
          if (name === 'menuFromServer' && !checked) {
            void loadServerMenu(t);
          }
        }}
      />
    </div>
  );
}

/** Arco passes unknown props to the drawer's wrapper; these make it an announced dialog. */
function dialogRole(label: string): Record<string, string> {
  return { role: 'dialog', 'aria-modal': 'true', 'aria-label': label };
}

export function SettingsDrawer() {
  const { t } = useTranslation();
  const open = useSettingsStore((state) => state.drawerOpen);
  const setDrawerOpen = useSettingsStore((state) => state.setDrawerOpen);
  const menuWidth = useSettingsStore((state) => state.menuWidth);
  const themeColor = useSettingsStore((state) => state.themeColor);
  const update = useSettingsStore((state) => state.update);

  const copySettings = async () => {
    const text = JSON.stringify(pickSettings(useSettingsStore.getState()), null, 2);
    try {
      await navigator.clipboard.writeText(text);
      notifySuccess(t('settings.copy.success'));
    } catch {
      notifyError(t('settings.copy.failed'));
    }
  };

  return (
    <Drawer
      {...dialogRole(t('settings.title'))}
      width={DRAWER_WIDTH}
      title={t('settings.title')}
      visible={open}
      onCancel={() => setDrawerOpen(false)}
      footer={
        <Button type="primary" onClick={() => void copySettings()}>
          {t('settings.copy')}
        </Button>
      }
    >
      <Alert className={styles.alert} type="info" content={t('settings.alert')} />

      <div className={styles.row}>
        <span>{t('settings.themeColor')}</span>
        <ColorPicker
          value={themeColor}
          showText
          disabledAlpha
          showPreset
          size="small"
          onChange={(value) => {
            if (typeof value === 'string') {
              update({ themeColor: value });
            }
          }}
        />
      </div>

      <h2 className={styles.section}>{t('settings.content')}</h2>
      {CONTENT_TOGGLES.map((name) => (
        <ToggleRow key={name} name={name} />
      ))}
      <div className={styles.row}>
        <span>{t('settings.menuWidth')}</span>
        <InputNumber
          size="small"
          style={{ width: MENU_WIDTH_INPUT }}
          min={MENU_WIDTH_MIN}
          max={MENU_WIDTH_MAX}
          value={menuWidth}
          aria-label={t('settings.menuWidth')}
          onChange={(value) => {
            if (typeof value === 'number') {
              update({ menuWidth: value });
            }
          }}
        />
      </div>

      <h2 className={styles.section}>{t('settings.other')}</h2>
      <ToggleRow name="colorWeak" />
    </Drawer>
  );
}
