import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useSettingsStore } from '@/features/settings/settings-store';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { getToken, setToken } from '@/lib/storage';
import { jsonResponse } from '@/testing/test-utils';
import { routes } from './router';

const fetchMock = vi.fn<typeof fetch>();

const admin = {
  uid: 1,
  username: 'admin',
  name: 'Ada Admin',
  role: 'admin',
  stationAuthority: 'all',
};

type Reply = { body: unknown; status?: number };

/** Answers each API path like the server would; unknown paths are a 404 envelope. */
function serve(replies: Record<string, Reply>) {
  fetchMock.mockImplementation(async (input) => {
    const path = String(input).split('?')[0]!;
    const reply = replies[path] ?? { body: { code: 404, msg: 'Not found', data: null }, status: 404 };
    return jsonResponse(reply.body, reply.status ?? 200);
  });
}

const ok = (data: unknown): Reply => ({ body: { code: 200, msg: 'ok', data } });

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const where = (router: ReturnType<typeof renderAt>) =>
  `${router.state.location.pathname}${router.state.location.search}`;

describe('routes and guard', () => {
  beforeAll(() => act(() => void i18n.changeLanguage('en-US')));
  afterAll(() => act(() => void i18n.changeLanguage('zh-CN')));
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    serve({
      '/v2/user/info': ok(admin),
      '/v2/sys/monitor/url': ok({ url: '' }),
      '/v2/sys/eplat/logouturl': ok({ url: '' }),
      '/v2/logout': ok(null),
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
    act(() => useSettingsStore.getState().reset());
  });

  it('sends a signed-out visit to login with the route name and its query', async () => {
    const router = renderAt('/station?x=1');
    await waitFor(() => expect(where(router)).toBe('/login?redirect=station&x=1'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('opens "/" on the login page when signed out', async () => {
    const router = renderAt('/');
    await waitFor(() => expect(where(router)).toBe('/login'));
  });

  it('loads the profile, then shows the shell with the page', async () => {
    setToken('t');
    const router = renderAt('/');
    await waitFor(() => expect(where(router)).toBe('/monitor'));
    expect(
      await screen.findByRole('heading', { name: 'Monitoring centre' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.getByText('Ada Admin')).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/v2/user/info')!;
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer t');
  });

  it('signs out and goes to login when the profile cannot be loaded', async () => {
    setToken('t');
    serve({
      '/v2/user/info': { body: { code: 500, msg: 'boom', data: null }, status: 500 },
      '/v2/sys/eplat/logouturl': ok({ url: '' }),
      '/v2/logout': ok(null),
    });
    const router = renderAt('/alarm');
    await waitFor(() => expect(where(router)).toBe('/login?redirect=alarm'));
    expect(getToken()).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/v2/logout')).toBe(true);
  });

  it('leads old wrapper paths to their page with the query', async () => {
    setToken('t');
    const router = renderAt('/stationLayout?x=2');
    await waitFor(() => expect(where(router)).toBe('/station?x=2'));
    expect(
      await screen.findByRole('heading', { name: 'Station' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });

  it('shows the not-found page for unknown paths without signing in', async () => {
    renderAt('/no/such/page');
    expect(
      await screen.findByText('Sorry, this page is gone.', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });

  it('re-opens a path through the redirect helper', async () => {
    setToken('t');
    const router = renderAt('/redirect/operations/plan?y=1');
    await waitFor(() => expect(where(router)).toBe('/operations/plan?y=1'));
  });

  it('with a server menu, sends a route it does not list to the first one it does', async () => {
    setToken('t');
    act(() => useSettingsStore.getState().update({ menuFromServer: true }));
    serve({
      '/v2/user/info': ok(admin),
      '/v2/sys/monitor/url': ok({ url: '' }),
      '/api/user/menu': ok([
        { path: '/alarm', name: 'Alarm', meta: { locale: 'menu.alarm', order: 1 } },
      ]),
    });
    const router = renderAt('/device');
    await waitFor(() => expect(where(router)).toBe('/alarm'));
    expect(
      await screen.findByRole('heading', { name: 'Alarm' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });
});
