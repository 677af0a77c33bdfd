import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useMatches, useNavigate } from 'react-router-dom';
import { PageLoading } from '@/components/page-loading';
import { ProgressFallback } from '@/components/progress-bar';
import { useSettingsStore } from '@/features/settings/settings-store';
import { useUser } from '@/lib/auth';
import { useServerMenu } from '@/lib/menu';
import { preloadable } from '@/lib/preloadable';
import { useToken } from '@/lib/storage';
import { loginPathFor } from '../login-redirect';
import { canAccess, firstPermittedRoute } from '../route-access';
import { APP_ROUTES, type AppRoute, NOT_FOUND_ROUTE, REDIRECT_ROUTE_NAME, routeByName } from '../route-config';
import { signOut } from '../session';

/** The signed-in shell: started with the entry by app/early-start.ts. */
export const AppLayout = preloadable(async () => (await import('../layout/app-layout')).default);

const REDIRECT_ROUTE: Pick<AppRoute, 'name' | 'path' | 'requiresAuth' | 'hideInMenu'> = {
  name: REDIRECT_ROUTE_NAME,
  path: '/redirect',
  requiresAuth: true,
  hideInMenu: true,
};

/** The route the address matched, from the name each route carries in its handle. */
function useCurrentRoute() {
  const matches = useMatches();
  const name = (matches[matches.length - 1]?.handle as { name?: string } | undefined)?.name;
  if (name === REDIRECT_ROUTE_NAME) {
    return REDIRECT_ROUTE;
  }
  return routeByName(name) ?? NOT_FOUND_ROUTE;
}

function Bare() {
  return (
    <Suspense fallback={<ProgressFallback />}>
      <Outlet />
    </Suspense>
  );
}

/** Signed in: profile first, then the role (and server menu) check, then the shell. */
function SignedIn({ route }: { route: ReturnType<typeof useCurrentRoute> }) {
  const navigate = useNavigate();
  const location = useLocation();
  const user = useUser();
  const menuFromServer = useSettingsStore((state) => state.menuFromServer);
  const serverMenu = useServerMenu(menuFromServer);

  // The page's code (and its first data) loads while the profile and the shell do.
  useEffect(() => {
    if (route !== REDIRECT_ROUTE) {
      void (route as AppRoute).page.preload().catch(() => undefined);
    }
  }, [route]);

  useEffect(() => {
    if (user.isError) {
      // No profile, no console: sign out and start again from the login page.
      void signOut().finally(() =>
        navigate(loginPathFor(route.name, location.search), { replace: true }),
      );
    }
  }, [user.isError, navigate, route.name, location.search]);

  if (user.isPending || user.isError || (menuFromServer && serverMenu.isPending)) {
    return <PageLoading />;
  }

  // A server menu that failed to load falls back to the local menu rather than locking the user out.
  const menu = menuFromServer && serverMenu.data ? serverMenu.data : null;
  if (!canAccess(route, user.data.role, menu)) {
    const first = firstPermittedRoute(APP_ROUTES, user.data.role, menu);
    if (first) {
      return <Navigate to={first.path} replace />;
    }
    return <Navigate to="/not-found" replace />;
  }

  return (
    <Suspense fallback={<PageLoading />}>
      <AppLayout />
    </Suspense>
  );
}

/**
 * The guard for every route but login (SPEC.md section 4): without a token a route that needs
 * sign-in goes to /login?redirect=<name>&<query>; the not-found page is shown bare.
 */
export function ShellRoute() {
  const token = useToken();
  const location = useLocation();
  const route = useCurrentRoute();
  if (!token) {
    if (route.requiresAuth) {
      return <Navigate to={loginPathFor(route.name, location.search)} replace />;
    }
    return <Bare />;
  }
  return <SignedIn route={route} />;
}
