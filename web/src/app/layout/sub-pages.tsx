import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { useRole } from '@/lib/auth';
import { roleAllows } from '../route-access';
import { APP_ROUTES, type AppRoute, routeByName } from '../route-config';
import styles from './sub-pages.module.css';
import { useCurrentAppRoute } from './use-current-route';

/** The pages kept out of the menu under `parent`, that `role` may open. */
export function subPagesOf(parent: AppRoute, role: string | undefined): AppRoute[] {
  return APP_ROUTES.filter((route) => route.section && route.parent === parent.name && roleAllows(route, role));
}

/**
 * The pages a menu entry holds besides its own (Permission: ingest keys, line protocol, MQTT,
 * vendor clouds, history import, webhooks, escalation): a row of links under the breadcrumb on
 * the entry's page and on each of them, so none is found only through another page's link.
 */
export function SubPages() {
  const { t } = useTranslation();
  const role = useRole();
  const route = useCurrentAppRoute();
  const parent = route.parent ? routeByName(route.parent) : route;
  const pages = parent ? subPagesOf(parent, role) : [];
  if (!parent || pages.length === 0) {
    return null;
  }
  return (
    <nav aria-label={t('menu.permission.more')} className={styles.row}>
      <ul>
        {[parent, ...pages].map((page) => (
          <li key={page.name}>
            <NavLink to={page.path} end className={({ isActive }) => (isActive ? styles.active : undefined)}>
              {t(page.locale)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
