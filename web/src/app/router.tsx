import { lazy, Suspense } from 'react';
import { createHashRouter, Outlet, type RouteObject } from 'react-router-dom';
import { ConnectionNotice } from '@/components/connection-notice';
import { ProgressBar, ProgressFallback } from '@/components/progress-bar';
import { useServerSettings } from '@/features/settings/server-settings';
import { useApplySettings } from '@/features/settings/use-apply-settings';
import { APP_ROUTES, NOT_FOUND_ROUTE, REDIRECT_ROUTE_NAME, WRAPPER_REDIRECTS } from './route-config';
import { RedirectRoute } from './routes/redirect-route';
import { ShellRoute } from './routes/shell-route';
import { HomeRedirect, WrapperRedirect } from './routes/simple-redirects';
import { useDocumentTitle } from './use-document-title';
import { useRouteEffects } from './use-route-effects';

// The login page is its own chunk so a first visit loads only what signing in needs.
const LoginRoute = lazy(async () => ({ default: (await import('./routes/login-route')).LoginRoute }));

function RootLayout() {
  useApplySettings();
  useServerSettings();
  useDocumentTitle();
  useRouteEffects();
  return (
    <>
      <ProgressBar />
      <ConnectionNotice />
      <Suspense fallback={<ProgressFallback />}>
        <Outlet />
      </Suspense>
    </>
  );
}

const NotFound = NOT_FOUND_ROUTE.page;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomeRedirect /> },
      { path: '/login', element: <LoginRoute />, handle: { name: 'login' } },
      ...Object.entries(WRAPPER_REDIRECTS).map(([from, to]) => ({
        path: from,
        element: <WrapperRedirect to={to} />,
      })),
      {
        element: <ShellRoute />,
        children: [
          ...APP_ROUTES.map(({ name, path, page: Page }) => ({
            path,
            element: <Page />,
            handle: { name },
          })),
          { path: '/redirect/*', element: <RedirectRoute />, handle: { name: REDIRECT_ROUTE_NAME } },
          { path: '*', element: <NotFound />, handle: { name: NOT_FOUND_ROUTE.name } },
        ],
      },
    ],
  },
];

/** Hash addressing (/#/monitor), so the binary serves one index.html for every screen. */
export function createRouter() {
  return createHashRouter(routes);
}
