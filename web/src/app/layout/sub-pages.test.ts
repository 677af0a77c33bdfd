import { APP_ROUTES, routeByName } from '../route-config';
import { subPagesOf } from './sub-pages';

describe('pages kept out of the menu', () => {
  it('are each listed under their menu entry for the roles that may open them', () => {
    const permission = routeByName('permission');
    expect(permission).toBeDefined();
    if (!permission) return;
    const names = subPagesOf(permission, 'admin').map((route) => route.name);
    expect(names).toEqual(['ingestKeys', 'lineIngest', 'ingestMqtt', 'cloud', 'webhooks', 'escalation', 'historyImport']);
    expect(subPagesOf(permission, 'user')).toEqual([]);
    // every page of a section is reachable from its parent: none is left to a link on another page
    const hidden = APP_ROUTES.filter((route) => route.section);
    expect(hidden.length).toBe(7);
    // a detail or edit page (it needs an id) is no section page
    expect(hidden.every((route) => route.hideInMenu && route.parent && !route.path.includes(':'))).toBe(true);
    for (const route of hidden) {
      const parent = routeByName(route.parent);
      expect(parent && subPagesOf(parent, 'admin').includes(route)).toBe(true);
    }
  });
});
