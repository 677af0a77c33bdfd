import Message from '@arco-design/web-react/es/Message';
import { onlineManager } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { ConnectionNotice } from '@/components/connection-notice';
import { DataState } from '@/components/data-state';
import { jsonResponse } from '@/testing/test-utils';
import { getUserInfo, keptProfile } from './auth';
import { noteServerReach, useServerReach } from './connection';
import { i18n } from './i18n';
import { useConsoleUpdate } from './service-worker';
import { clearSessionStorage, setToken, STORAGE_KEYS } from './storage';

const PROFILE = { uid: 7, username: 'crew', name: 'Crew Member', role: 'user' };
const fetchMock = vi.fn<typeof fetch>();

describe('working without the network', () => {
  beforeAll(() => void i18n.changeLanguage('en-US'));
  afterAll(() => void i18n.changeLanguage('zh-CN'));

  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    // the request layer's toasts are not what these tests look at
    vi.spyOn(Message, 'error').mockImplementation(() => () => undefined);
    setToken('secret');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    clearSessionStorage();
    onlineManager.setOnline(true);
    act(() => {
      noteServerReach(true);
      useConsoleUpdate.setState({ ready: false });
    });
  });

  it('keeps the profile, and answers with it when the server gives no response', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 200, msg: 'ok', data: PROFILE }));
    expect(await getUserInfo()).toEqual(PROFILE);
    expect(keptProfile()).toEqual(PROFILE);

    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await getUserInfo()).toEqual(PROFILE);
    expect(useServerReach.getState().reachable).toBe(false);

    // a server that answers "signed out" is believed, kept profile or not
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 401, msg: 'unauthorized', data: null }, 401));
    await expect(getUserInfo()).rejects.toMatchObject({ code: 401 });
    expect(useServerReach.getState().reachable).toBe(true);
  });

  it('has no profile to answer with after sign-out', async () => {
    window.localStorage.setItem(STORAGE_KEYS.profile, JSON.stringify(PROFILE));
    clearSessionStorage();
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(getUserInfo()).rejects.toMatchObject({ code: 0 });
  });

  it('says so while the server cannot be reached, and offers a new version', () => {
    render(<ConnectionNotice />);
    expect(screen.queryByRole('status')).toBeNull();
    act(() => noteServerReach(false));
    expect(screen.getByRole('status')).toHaveTextContent('You are offline.');
    act(() => noteServerReach(true));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => onlineManager.setOnline(false));
    expect(screen.getByRole('status')).toHaveTextContent('You are offline.');
    act(() => {
      onlineManager.setOnline(true);
      useConsoleUpdate.setState({ ready: true });
    });
    expect(screen.getByRole('status')).toHaveTextContent('A new version of the console is ready.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('says a list waits for the network rather than loading, offline', () => {
    render(<DataState loading />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    act(() => onlineManager.setOnline(false));
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for the network…');
  });

  it('says a list that failed offline waits for the network, and offers Retry online', () => {
    render(<DataState error onRetry={() => undefined} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The data could not be loaded');
    act(() => noteServerReach(false));
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for the network…');
    act(() => window.dispatchEvent(new Event('offline')));
    expect(onlineManager.isOnline()).toBe(false);
  });
});
