import Drawer from '@arco-design/web-react/es/Drawer';
import '@arco-design/web-react/es/Drawer/style/css.js';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { Logo } from '@/components/logo';
import { useSettingsStore } from '@/features/settings/settings-store';
import { useAppTitle } from '@/lib/branding';
import styles from './menu-drawer.module.css';
import { NavbarTools } from './navbar';
import { SideMenu } from './side-menu';

/** The class of the menu drawer: the one drawer a phone does not draw full width (global.css). */
export const MENU_DRAWER_CLASS = 'helio-menu-drawer';

interface MenuDrawerProps {
  visible: boolean;
  onClose: () => void;
}

/**
 * The menu on a phone: a drawer from the left with the console menu and the page tools the
 * navbar has no room for. It closes on a move to another page (a menu entry chosen), on
 * Escape, on a tap beside it, and when the page settings open over it.
 */
export function MenuDrawer({ visible, onClose }: MenuDrawerProps) {
  const { t } = useTranslation();
  const title = useAppTitle();
  const location = useLocation();
  const settingsOpen = useSettingsStore((state) => state.drawerOpen);
  const close = useRef(onClose);
  close.current = onClose;

  // every navigation has a key of its own, a move to the page already shown included
  useEffect(() => {
    close.current();
  }, [location.key]);

  useEffect(() => {
    if (settingsOpen) {
      close.current();
    }
  }, [settingsOpen]);

  // Arco's drawer has no role: it is a modal dialog named after the menu it holds
  const dialog = { role: 'dialog', 'aria-modal': true, 'aria-label': t('menu.label') } as object;

  return (
    <Drawer
      {...dialog}
      className={MENU_DRAWER_CLASS}
      placement="left"
      width={288}
      visible={visible}
      onCancel={onClose}
      footer={null}
      escToExit
      maskClosable
      focusLock
      autoFocus
      unmountOnExit
      bodyStyle={{ padding: '8px 12px 16px' }}
      title={
        <span className={styles.brand}>
          <Logo size={24} />
          <span className={styles.title}>{title}</span>
        </span>
      }
    >
      <nav className={styles.menu} aria-label={t('menu.label')}>
        <SideMenu collapsed={false} />
      </nav>
      <ul className={styles.tools} aria-label={t('menu.pageTools')}>
        <NavbarTools />
      </ul>
    </Drawer>
  );
}
