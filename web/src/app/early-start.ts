import { userQuery } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { getToken } from '@/lib/storage';
import { DEFAULT_ROUTE_PATH, routeByPath } from './route-config';
import { AppLayout } from './routes/shell-route';

/**
 * Signed in and opening a screen: the profile, the screen's code and first data, and the shell
 * start loading with the entry, while the language's texts are still on their way (main.tsx),
 * rather than one after the other once the app has rendered.
 */
export function startEarly(hash: string = window.location.hash): void {
  if (!getToken()) {
    return;
  }
  const path = hash.replace(/^#/, '').split('?')[0] || '/';
  const route = routeByPath(path === '/' ? DEFAULT_ROUTE_PATH : path);
  if (!route) {
    return;
  }
  void queryClient.prefetchQuery(userQuery);
  void route.page.preload().catch(() => undefined);
  void AppLayout.preload().catch(() => undefined);
}
