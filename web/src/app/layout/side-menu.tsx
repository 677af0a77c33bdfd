import Menu from '@arco-design/web-react/es/Menu';
import '@arco-design/web-react/es/Menu/style/css.js';
import { IconDesktop, IconLaunch } from '@arco-design/web-react/icon';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSettingsStore } from '@/features/settings/settings-store';
import { useRole } from '@/lib/auth';
import { i18n } from '@/lib/i18n';
import { type ServerMenuItem, useServerMenu } from '@/lib/menu';
import { useMonitorUrl } from '@/lib/system';
import { roleAllows } from '../route-access';
import { MENU_GROUPS, menuRoutes, routeByName, routeByPath } from '../route-config';
import { MENU_ICONS } from './menu-icons';
import styles from './side-menu.module.css';
import { useCurrentAppRoute } from './use-current-route';

const REALTIME_MONITOR_KEY = '__realtimeMonitor';
const EXTERNAL = /^https?:\/\//;

/** One menu entry, from either the local routes or the server menu. */
interface Entry {
  key: string;
  label: string;
  icon?: ReactElement;
  /** A console path, or an external address opened in a new tab. */
  target?: string;
  children?: Entry[];
}

function useLocalEntries(): Entry[] {
  const { t } = useTranslation();
  const role = useRole();
  const entries: Entry[] = [];
  for (const route of menuRoutes()) {
    if (!roleAllows(route, role)) {
      continue;
    }
    // Entries inside a group go without an icon (the group has one) and with a small indent
    // (levelIndent), so the longest label ("Station tag management") fits the default
    // width in every language.
    const entry: Entry = {
      key: route.name,
      label: t(route.locale),
      icon: route.group ? undefined : MENU_ICONS[route.name],
      target: route.path,
    };
    if (!route.group) {
      entries.push(entry);
      continue;
    }
    const groupKey = `group:${route.group}`;
    let group = entries.find((item) => item.key === groupKey);
    if (!group) {
      group = {
        key: groupKey,
        label: t(MENU_GROUPS[route.group].locale),
        icon: MENU_ICONS[route.group],
        children: [],
      };
      entries.push(group);
    }
    group.children?.push(entry);
  }
  return entries;
}

/**
 * The server's entries, matched to console routes by name or path. A matched entry keeps the
 * console's own label key; an external entry without an address of its own is the real-time
 * monitor, shown only when the server names a monitor address.
 */
function fromServer(
  items: ServerMenuItem[],
  t: TFunction,
  monitorUrl: string,
  parentPath = '',
): Entry[] {
  return [...items]
    .sort((a, b) => (a.meta?.order ?? 0) - (b.meta?.order ?? 0))
    .flatMap((item): Entry[] => {
      const path =
        EXTERNAL.test(item.path) || item.path.startsWith('/')
          ? item.path
          : `${parentPath.replace(/\/$/, '')}/${item.path}`;
      const local = routeByName(item.name) ?? routeByPath(path);
      const serverKey = item.meta?.locale;
      const label = local
        ? t(local.locale)
        : serverKey && i18n.exists(serverKey)
          ? t(serverKey)
          : item.name;
      if (item.meta?.external && !EXTERNAL.test(path) && !local) {
        const realtime: Entry = {
          key: REALTIME_MONITOR_KEY,
          label: t('menu.realtimeMonitor'),
          icon: <IconDesktop />,
          target: monitorUrl,
        };
        return monitorUrl ? [realtime] : [];
      }
      const children = item.children?.length
        ? fromServer(item.children, t, monitorUrl, path)
        : undefined;
      return [
        {
          key: `server:${item.name || path}`,
          label,
          icon: parentPath ? undefined : (MENU_ICONS[local?.name ?? ''] ?? (children ? MENU_ICONS.operations : undefined)),
          target: children ? undefined : (local?.path ?? path),
          children,
        },
      ];
    });
}

function keyOf(entries: Entry[], routePath: string): { selected?: string; open?: string } {
  for (const entry of entries) {
    if (entry.target === routePath) {
      return { selected: entry.key };
    }
    const child = entry.children?.find((item) => item.target === routePath);
    if (child) {
      return { selected: child.key, open: entry.key };
    }
  }
  return {};
}

function renderEntries(entries: Entry[]) {
  return entries.map((entry) =>
    entry.children ? (
      <Menu.SubMenu
        key={entry.key}
        title={
          <span className={styles.label}>
            {entry.icon}
            <span>{entry.label}</span>
          </span>
        }
      >
        {renderEntries(entry.children)}
      </Menu.SubMenu>
    ) : (
      <Menu.Item key={entry.key}>
        {entry.icon}
        {entry.label}
        {entry.target && EXTERNAL.test(entry.target) && <IconLaunch className={styles.external} />}
      </Menu.Item>
    ),
  );
}

function flatten(entries: Entry[]): Entry[] {
  return entries.flatMap((entry) => [entry, ...flatten(entry.children ?? [])]);
}

/** The console menu: local routes by default, the server's menu when menuFromServer is on. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentAppRoute();
  const menuFromServer = useSettingsStore((state) => state.menuFromServer);
  const serverMenu = useServerMenu(menuFromServer);
  const monitorUrl = useMonitorUrl();
  const localEntries = useLocalEntries();

  const fromServerMenu = menuFromServer && serverMenu.data;
  const entries = fromServerMenu
    ? fromServer(serverMenu.data, t, monitorUrl.data ?? '')
    : [...localEntries];
  if (!fromServerMenu && monitorUrl.data) {
    entries.push({
      key: REALTIME_MONITOR_KEY,
      label: t('menu.realtimeMonitor'),
      icon: <IconDesktop />,
      target: monitorUrl.data,
    });
  }

  const { selected, open } = keyOf(entries, routeByName(route.parent)?.path ?? route.path);
  const all = flatten(entries);

  const onClick = (key: string) => {
    const target = all.find((entry) => entry.key === key)?.target;
    if (!target) {
      return;
    }
    if (EXTERNAL.test(target)) {
      window.open(target, '_blank', 'noopener,noreferrer');
    } else {
      navigate(target);
    }
  };

  return (
    <Menu
      className={styles.menu}
      collapse={collapsed}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={open ? [open] : entries.filter((entry) => entry.children).map((entry) => entry.key)}
      onClickMenuItem={onClick}
      autoOpen={false}
      levelIndent={12}
    >
      {renderEntries(entries)}
    </Menu>
  );
}
