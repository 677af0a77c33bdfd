import { DEFAULT_ROUTE_PATH, routeByName } from './route-config';

/** /login?redirect=<route name>&<the route's own query>, so sign-in can return there. */
export function loginPathFor(routeName: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete('redirect');
  const query = params.toString();
  return `/login?redirect=${encodeURIComponent(routeName)}${query ? `&${query}` : ''}`;
}

/** Where a successful sign-in goes: the redirect target with its query, or the monitor. */
export function afterLoginPath(search: string): string {
  const params = new URLSearchParams(search);
  const route = routeByName(params.get('redirect'));
  params.delete('redirect');
  if (!route) {
    return DEFAULT_ROUTE_PATH;
  }
  const query = params.toString();
  return `${route.path}${query ? `?${query}` : ''}`;
}
