import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useSettingsStore } from '@/features/settings/settings-store';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { stubPhone } from '@/testing/phone';
import { jsonResponse } from '@/testing/test-utils';
import { routes } from '../router';

const fetchMock = vi.fn<typeof fetch>();
const ok = (data: unknown) => jsonResponse({ code: 200, msg: 'ok', data });

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('the menu on a phone', () => {
  beforeAll(() => act(() => void i18n.changeLanguage('en-US')));
  afterAll(() => act(() => void i18n.changeLanguage('zh-CN')));
  beforeEach(() => {
    stubPhone();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(async (input) => {
      const path = String(input).split('?')[0]!;
      if (path === '/v2/user/info') {
        return ok({ uid: 1, username: 'admin', name: 'Ada Admin', role: 'admin', stationAuthority: 'all' });
      }
      if (path === '/v2/sys/monitor/url') {
        return ok({ url: '' });
      }
      return jsonResponse({ code: 404, msg: 'Not found', data: null }, 404);
    });
    setToken('t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
    act(() => useSettingsStore.getState().reset());
  });

  it('hides the side menu and the page tools behind a menu button', async () => {
    renderAt('/monitor');
    const button = await screen.findByRole('button', { name: 'Open the menu' }, { timeout: 15_000 });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Language' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Account/ })).toBeInTheDocument();
  });

  it('opens the menu as a dialog with the tools, and closes it on Escape', async () => {
    renderAt('/monitor');
    await userEvent.click(await screen.findByRole('button', { name: 'Open the menu' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(screen.getByRole('button', { name: 'Open the menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(dialog).getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    const tools = within(dialog).getByRole('list', { name: 'Page tools' });
    expect(within(tools).getByRole('button', { name: 'Language' })).toBeInTheDocument();
    expect(within(tools).getByRole('button', { name: 'Page settings' })).toBeInTheDocument();
    // the focus moves into the drawer, where Escape is heard
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    // Arco reads the key's keyCode, which user-event leaves out
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(screen.getByRole('button', { name: 'Open the menu' })).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument());
  });

  it('goes to the page of the entry chosen and closes', async () => {
    const router = renderAt('/monitor');
    await userEvent.click(await screen.findByRole('button', { name: 'Open the menu' }, { timeout: 15_000 }));
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Alarm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/alarm'));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument());
  });

  it('closes when the page settings open from it', async () => {
    renderAt('/monitor');
    await userEvent.click(await screen.findByRole('button', { name: 'Open the menu' }, { timeout: 15_000 }));
    const tools = await screen.findByRole('list', { name: 'Page tools' });
    await userEvent.click(within(tools).getByRole('button', { name: 'Page settings' }));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument());
    expect(useSettingsStore.getState().drawerOpen).toBe(true);
  });
});
