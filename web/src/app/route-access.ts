import { flattenServerMenu, type ServerMenuItem } from '@/lib/menu';
import type { AppRoute } from './route-config';

/** Routes that never need to be in the server menu. */
export const WHITE_LIST = ['login', 'notFound'];

type AccessMeta = Pick<AppRoute, 'requiresAuth' | 'roles'>;

/**
 * SPEC.md section 5: allowed if the route needs no auth, has no role list, lists the wildcard,
 * or lists the current role.
 */
export function roleAllows(meta: AccessMeta, role: string | undefined): boolean {
  if (!meta.requiresAuth || !meta.roles) {
    return true;
  }
  return meta.roles.includes('*') || (role !== undefined && meta.roles.includes(role));
}

/** Whether the server menu lists a route, by name or by full path. */
export function inServerMenu(route: Pick<AppRoute, 'name' | 'path'>, menu: ServerMenuItem[]): boolean {
  return flattenServerMenu(menu).some(
    (item) => item.name === route.name || item.path === route.path,
  );
}

/**
 * Full access check. With a server menu (menuFromServer on), a menu route must also be listed
 * there; the white list and the routes no menu shows (user settings, exception pages, the
 * redirect helper) are checked by role alone.
 */
export function canAccess(
  route: Pick<AppRoute, 'name' | 'path' | 'requiresAuth' | 'roles' | 'hideInMenu'>,
  role: string | undefined,
  serverMenu: ServerMenuItem[] | null,
): boolean {
  if (!roleAllows(route, role)) {
    return false;
  }
  if (!serverMenu || WHITE_LIST.includes(route.name) || route.hideInMenu) {
    return true;
  }
  return inServerMenu(route, serverMenu);
}

/** Where to send a user who may not open the route asked for; undefined means not found. */
export function firstPermittedRoute(
  routes: AppRoute[],
  role: string | undefined,
  serverMenu: ServerMenuItem[] | null,
): AppRoute | undefined {
  return routes.find((route) => !route.hideInMenu && canAccess(route, role, serverMenu));
}
