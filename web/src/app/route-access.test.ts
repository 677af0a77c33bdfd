import type { ServerMenuItem } from '@/lib/menu';
import { canAccess, firstPermittedRoute, inServerMenu, roleAllows } from './route-access';
import { APP_ROUTES, routeByName } from './route-config';

const menu = (items: Partial<ServerMenuItem>[]): ServerMenuItem[] =>
  items.map((item) => ({ path: '', name: '', meta: {}, ...item }));

describe('route access', () => {
  it('follows the SPEC.md rule for roles', () => {
    expect(roleAllows({ requiresAuth: false, roles: ['admin'] }, 'user')).toBe(true);
    expect(roleAllows({ requiresAuth: true }, 'user')).toBe(true);
    expect(roleAllows({ requiresAuth: true, roles: ['*'] }, 'user')).toBe(true);
    expect(roleAllows({ requiresAuth: true, roles: ['admin'] }, 'admin')).toBe(true);
    expect(roleAllows({ requiresAuth: true, roles: ['admin'] }, 'user')).toBe(false);
    expect(roleAllows({ requiresAuth: true, roles: ['admin'] }, undefined)).toBe(false);
  });

  it('lets every role open every route but the administrators\' ones', () => {
    for (const route of APP_ROUTES) {
      expect(canAccess(route, 'admin', null)).toBe(true);
      expect(canAccess(route, 'user', null)).toBe(route.roles?.includes('*') ?? true);
    }
    const adminOnly = APP_ROUTES.filter((route) => !canAccess(route, 'user', null)).map((route) => route.name);
    expect(adminOnly).toEqual(['stationAdd', 'checklists', 'permission', 'ingestKeys', 'lineIngest', 'ingestMqtt', 'cloud', 'webhooks', 'escalation', 'historyImport']);
  });

  it('finds routes in a nested server menu by name or by path', () => {
    const server = menu([
      { path: '/operationsLayout', name: 'operations', children: menu([{ path: 'plan', name: 'x' }]) },
      { path: '/somewhere', name: 'station' },
    ]);
    expect(inServerMenu({ name: 'station', path: '/station' }, server)).toBe(true);
    expect(inServerMenu({ name: 'plan', path: '/operationsLayout/plan' }, server)).toBe(true);
    expect(inServerMenu({ name: 'device', path: '/device' }, server)).toBe(false);
  });

  it('with a server menu, a menu route must be listed; hidden routes need only the role', () => {
    const server = menu([{ path: '/station', name: 'station' }]);
    expect(canAccess(routeByName('station')!, 'user', server)).toBe(true);
    expect(canAccess(routeByName('device')!, 'user', server)).toBe(false);
    expect(canAccess(routeByName('userSettings')!, 'user', server)).toBe(true);
    expect(
      canAccess({ name: 'notFound', path: '*', requiresAuth: false }, 'user', menu([])),
    ).toBe(true);
  });

  it('sends a refused user to the first permitted route, else nowhere (not found)', () => {
    expect(firstPermittedRoute(APP_ROUTES, 'user', null)?.name).toBe('monitor');
    const server = menu([{ path: '/alarm', name: 'alarm' }]);
    expect(firstPermittedRoute(APP_ROUTES, 'user', server)?.name).toBe('alarm');
    expect(firstPermittedRoute(APP_ROUTES, 'user', menu([]))).toBeUndefined();
  });
});
