import Button from '@arco-design/web-react/es/Button';
import ConfigProvider from '@arco-design/web-react/es/ConfigProvider';
import Layout from '@arco-design/web-react/es/Layout';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/ConfigProvider/style/css.js';
import '@arco-design/web-react/es/Layout/style/css.js';
import { IconMenuFold, IconMenuUnfold } from '@arco-design/web-react/icon';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { Logo } from '@/components/logo';
import { ProgressFallback } from '@/components/progress-bar';
import { FloatingSettingsButton } from '@/features/settings/settings-button';
import { useSettingsStore } from '@/features/settings/settings-store';
import { useAppTitle } from '@/lib/branding';
import { usePhone } from '@/lib/use-phone';
import { useArcoLocale } from '../arco-locale';
import { NOT_FOUND_ROUTE } from '../route-config';
import { useTabsStore } from '../tabs-store';
import styles from './app-layout.module.css';
import { PageBreadcrumb } from './breadcrumb';
import { MenuDrawer } from './menu-drawer';
import { Navbar } from './navbar';
import { SideMenu } from './side-menu';
import { MAIN_ID, SkipLink } from './skip-link';
import { SubPages } from './sub-pages';
import { TabBar } from './tab-bar';
import { useCurrentAppRoute } from './use-current-route';

// The settings drawer (colour picker, number inputs, switches) loads when first opened, not with
// every screen: nothing of it shows until then.
const SettingsDrawer = lazy(async () => ({
  default: (await import('@/features/settings/settings-drawer')).SettingsDrawer,
}));

/** Mounts the drawer from its first opening on, so it keeps its closing animation afterwards. */
function LazySettingsDrawer() {
  const open = useSettingsStore((state) => state.drawerOpen);
  const [opened, setOpened] = useState(open);
  if (open && !opened) {
    setOpened(true);
  }
  if (!opened) {
    return null;
  }
  return (
    <Suspense fallback={null}>
      <SettingsDrawer />
    </Suspense>
  );
}

const NAVBAR_HEIGHT = 60;
const COLLAPSED_MENU_WIDTH = 48;

/** Every visited page becomes a tab (the not-found page does not). */
function useTrackTabs() {
  const route = useCurrentAppRoute();
  const location = useLocation();
  const open = useTabsStore((state) => state.open);
  useEffect(() => {
    if (route.name === NOT_FOUND_ROUTE.name) {
      return;
    }
    open({
      title: route.locale,
      name: route.name,
      fullPath: `${location.pathname}${location.search}`,
      query: Object.fromEntries(new URLSearchParams(location.search)),
    });
  }, [route, location.pathname, location.search, open]);
}

/** The signed-in shell: navbar, menu, tab bar, breadcrumb, page, footer and the settings drawer. */
export default function AppLayout() {
  const { t } = useTranslation();
  const title = useAppTitle();
  const navbar = useSettingsStore((state) => state.navbar);
  const menu = useSettingsStore((state) => state.menu);
  const hideMenu = useSettingsStore((state) => state.hideMenu);
  const topMenu = useSettingsStore((state) => state.topMenu);
  const footer = useSettingsStore((state) => state.footer);
  const tabBar = useSettingsStore((state) => state.tabBar);
  const collapsed = useSettingsStore((state) => state.menuCollapse);
  const menuWidth = useSettingsStore((state) => state.menuWidth);
  const update = useSettingsStore((state) => state.update);
  const arcoLocale = useArcoLocale();
  const phone = usePhone();
  const [menuOpen, setMenuOpen] = useState(false);
  useTrackTabs();

  // A phone has no room for a menu beside the page: it opens as a drawer from the navbar.
  const showMenu = menu && !hideMenu && !phone;
  const siderWidth = collapsed ? COLLAPSED_MENU_WIDTH : menuWidth;
  // Top menu bar on: the navbar spans the page and the menu sits beneath it.
  // Off: the menu runs the full height, with the brand at its top, and the navbar sits beside it.
  const siderTop = navbar && topMenu ? NAVBAR_HEIGHT : 0;
  const contentLeft = showMenu ? siderWidth : 0;

  return (
    <ConfigProvider locale={arcoLocale}>
    <Layout className={styles.layout}>
      <SkipLink target={MAIN_ID} />
      {navbar && (
        <div
          className={styles.navbar}
          style={{ left: showMenu && !topMenu ? siderWidth : 0, height: NAVBAR_HEIGHT }}
        >
          <Navbar
            showBrand={topMenu || !showMenu}
            phone={phone}
            menuOpen={menuOpen}
            onMenu={() => setMenuOpen(true)}
          />
        </div>
      )}
      {showMenu && (
        <Layout.Sider
          className={styles.sider}
          width={siderWidth}
          collapsed={collapsed}
          collapsedWidth={COLLAPSED_MENU_WIDTH}
          style={{ top: siderTop, height: `calc(100vh - ${siderTop}px)` }}
        >
          {siderTop === 0 && (
            <div className={styles.siderBrand}>
              <Logo size={28} />
              {!collapsed && <span className={styles.siderTitle}>{title}</span>}
            </div>
          )}
          <nav className={styles.menuWrapper} aria-label={t('menu.label')}>
            <SideMenu collapsed={collapsed} />
          </nav>
          <div className={styles.collapse}>
            <Button
              size="small"
              type="text"
              icon={collapsed ? <IconMenuUnfold /> : <IconMenuFold />}
              aria-label={collapsed ? t('menu.expand') : t('menu.collapse')}
              title={collapsed ? t('menu.expand') : t('menu.collapse')}
              onClick={() => update({ menuCollapse: !collapsed })}
            />
          </div>
        </Layout.Sider>
      )}
      <Layout
        className={styles.main}
        style={{ paddingLeft: contentLeft, paddingTop: navbar ? NAVBAR_HEIGHT : 0 }}
      >
        {tabBar && <TabBar />}
        <Layout.Content className={styles.content}>
          <PageBreadcrumb />
          <SubPages />
          <main id={MAIN_ID} className={styles.page} tabIndex={-1}>
            <Suspense fallback={<ProgressFallback />}>
              <Outlet />
            </Suspense>
          </main>
        </Layout.Content>
        {footer && (
          <Layout.Footer className={styles.footer} role="contentinfo">
            {t('app.footer')}
          </Layout.Footer>
        )}
      </Layout>
      {phone && <MenuDrawer visible={menuOpen} onClose={() => setMenuOpen(false)} />}
      <LazySettingsDrawer />
      <FloatingSettingsButton />
    </Layout>
    </ConfigProvider>
  );
}
