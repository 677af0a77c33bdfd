import Avatar from '@arco-design/web-react/es/Avatar';
import Button from '@arco-design/web-react/es/Button';
import Dropdown from '@arco-design/web-react/es/Dropdown';
import Menu from '@arco-design/web-react/es/Menu';
import '@arco-design/web-react/es/Avatar/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Dropdown/style/css.js';
import '@arco-design/web-react/es/Menu/style/css.js';
import {
  IconFullscreen,
  IconFullscreenExit,
  IconMenu,
  IconMoonFill,
  IconNotification,
  IconPoweroff,
  IconSettings,
  IconSunFill,
  IconUser,
} from '@arco-design/web-react/icon';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LocaleSwitch } from '@/components/locale-switch';
import { Logo } from '@/components/logo';
import { AssistantButton } from '@/features/assistant/assistant-button';
import { MessageBell } from '@/features/messages/message-bell';
import { LocationSwitch } from '@/features/settings/location-switch';
import { useSettingsStore } from '@/features/settings/settings-store';
import { useUser } from '@/lib/auth';
import { useAppTitle } from '@/lib/branding';
import { signOut } from '../session';
import styles from './navbar.module.css';

function useFullscreen(): [boolean, () => void] {
  const [active, setActive] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setActive(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) {
      void document.exitFullscreen?.();
    } else {
      void document.documentElement.requestFullscreen?.();
    }
  };
  return [active, toggle];
}

function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useSettingsStore((state) => state.theme);
  const update = useSettingsStore((state) => state.update);
  const label = theme === 'dark' ? t('navbar.theme.toLight') : t('navbar.theme.toDark');
  return (
    <Button
      shape="circle"
      type="secondary"
      icon={theme === 'dark' ? <IconSunFill /> : <IconMoonFill />}
      aria-label={label}
      title={label}
      aria-pressed={theme === 'dark'}
      onClick={() => update({ theme: theme === 'dark' ? 'light' : 'dark' })}
    />
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useUser();
  const displayName = user?.name || user?.username || '';

  const onClick = async (key: string) => {
    if (key === 'settings') {
      navigate('/user/settings');
      return;
    }
    if (key === 'notify') {
      navigate('/alarm?tab=settings');
      return;
    }
    const url = await signOut();
    if (url) {
      window.location.assign(url);
    } else {
      navigate('/login', { replace: true });
    }
  };

  return (
    <Dropdown
      trigger="click"
      position="br"
      droplist={
        <Menu onClickMenuItem={(key) => void onClick(key)}>
          <Menu.Item key="settings">
            <IconSettings className={styles.menuIcon} />
            {t('navbar.userSettings')}
          </Menu.Item>
          <Menu.Item key="notify">
            <IconNotification className={styles.menuIcon} />
            {t('messages.notifySettings')}
          </Menu.Item>
          <Menu.Item key="logout">
            <IconPoweroff className={styles.menuIcon} />
            {t('navbar.logout')}
          </Menu.Item>
        </Menu>
      }
    >
      {/* Named by what it shows (name and role) followed by what it is. */}
      <button type="button" className={styles.account} aria-haspopup="menu">
        <Avatar size={32} className={styles.avatar} aria-hidden>
          {user?.avatar ? <img src={user.avatar} alt="" /> : displayName ? displayName.slice(0, 1) : <IconUser />}
        </Avatar>
        <span className={styles.accountText}>
          <span className={styles.accountName}>{displayName}</span>
          {user?.role && <span className={styles.accountRole}>{t(`role.${user.role}`)}</span>}
        </span>
        <span className="visually-hidden">{t('navbar.account')}</span>
      </button>
    </Dropdown>
  );
}

interface NavbarProps {
  /** The brand shows here unless the full-height menu already carries it. */
  showBrand: boolean;
  /** Phone-sized: a menu button on the left, and the tools that do not fit in the menu drawer. */
  phone?: boolean;
  /** Whether the menu drawer is open (phone only). */
  menuOpen?: boolean;
  onMenu?: () => void;
}

function FullscreenButton() {
  const { t } = useTranslation();
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const label = fullscreen ? t('navbar.fullscreen.exit') : t('navbar.fullscreen.enter');
  return (
    <Button
      shape="circle"
      type="secondary"
      icon={fullscreen ? <IconFullscreenExit /> : <IconFullscreen />}
      aria-label={label}
      title={label}
      onClick={toggleFullscreen}
    />
  );
}

function SettingsButton() {
  const { t } = useTranslation();
  const setDrawerOpen = useSettingsStore((state) => state.setDrawerOpen);
  return (
    <Button
      shape="circle"
      type="secondary"
      icon={<IconSettings />}
      aria-label={t('navbar.settings')}
      title={t('navbar.settings')}
      onClick={() => setDrawerOpen(true)}
    />
  );
}

/**
 * The page tools that fold away into the menu drawer on a phone, where the navbar has room for
 * the assistant, the messages and the account only.
 */
export function NavbarTools() {
  return (
    <>
      <li>
        <LocationSwitch />
      </li>
      <li>
        <LocaleSwitch />
      </li>
      <li>
        <ThemeToggle />
      </li>
      <li>
        <FullscreenButton />
      </li>
      <li>
        <SettingsButton />
      </li>
    </>
  );
}

export function Navbar({ showBrand, phone = false, menuOpen = false, onMenu }: NavbarProps) {
  const { t } = useTranslation();
  const title = useAppTitle();

  if (phone) {
    return (
      <header className={styles.navbar} data-phone="">
        <div className={styles.left}>
          <Button
            className={styles.menuButton}
            shape="circle"
            type="secondary"
            icon={<IconMenu />}
            aria-label={t('menu.open')}
            title={t('menu.open')}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            onClick={onMenu}
          />
          <Logo size={28} />
        </div>
        <ul className={styles.right}>
          <li>
            <AssistantButton />
          </li>
          <li>
            <MessageBell />
          </li>
          <li>
            <UserMenu />
          </li>
        </ul>
      </header>
    );
  }

  return (
    <header className={styles.navbar}>
      <div className={styles.left}>
        {showBrand && (
          <>
            <Logo size={32} />
            <span className={styles.title}>{title}</span>
          </>
        )}
      </div>
      <ul className={styles.right}>
        <li>
          <LocationSwitch />
        </li>
        <li>
          <LocaleSwitch />
        </li>
        <li>
          <ThemeToggle />
        </li>
        <li>
          <AssistantButton />
        </li>
        <li>
          <MessageBell />
        </li>
        <li>
          <FullscreenButton />
        </li>
        <li>
          <SettingsButton />
        </li>
        <li>
          <UserMenu />
        </li>
      </ul>
    </header>
  );
}
