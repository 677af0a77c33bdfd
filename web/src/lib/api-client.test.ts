import Message from '@arco-design/web-react/es/Message';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { MockInstance } from 'vitest';
import { jsonResponse } from '@/testing/test-utils';
import { api, ApiError, configureSessionHandlers, REQUEST_TIMEOUT_MS, request } from './api-client';
import { i18n } from './i18n';
import { MESSAGE_DURATION_MS } from './notify';
import { getToken, setToken, STORAGE_KEYS } from './storage';

const fetchMock = vi.fn<typeof fetch>();
const onUnauthorized = vi.fn();
const relogin = vi.fn();
let errorSpy: MockInstance;

function shownErrors(): string[] {
  return errorSpy.mock.calls.map((call) => (call[0] as { content: string }).content);
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

describe('api client', () => {
  beforeAll(() => void i18n.changeLanguage('en-US'));
  afterAll(() => void i18n.changeLanguage('zh-CN'));

  beforeEach(() => {
    fetchMock.mockReset();
    onUnauthorized.mockReset();
    relogin.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    errorSpy = vi.spyOn(Message, 'error').mockImplementation(() => () => undefined);
    configureSessionHandlers({ onUnauthorized, relogin });
    setToken('secret');
    window.localStorage.setItem(STORAGE_KEYS.cid, 'client-1');
    window.localStorage.setItem(STORAGE_KEYS.alarmList, '{"state":{"messages":[]}}');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    errorSpy.mockRestore();
  });

  describe('headers', () => {
    it('sends the bearer token and the current locale', async () => {
      fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: { a: 1 } }));
      await api.get('/v2/user/info', { query: { page: 1, empty: undefined } });
      const [url, init] = fetchMock.mock.calls[0]!;
      expect(url).toBe('/v2/user/info?page=1');
      const headers = new Headers(init?.headers);
      expect(headers.get('Authorization')).toBe('Bearer secret');
      expect(headers.get('Accept-Language')).toBe('en-US');
    });

    it('follows a locale change', async () => {
      fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: null }));
      await act(async () => {
        await i18n.changeLanguage('ko-KR');
      });
      await api.post('/v2/logout');
      expect(new Headers(fetchMock.mock.calls[0]![1]?.headers).get('Accept-Language')).toBe('ko-KR');
      await act(async () => {
        await i18n.changeLanguage('en-US');
      });
    });

    it('never sends the token to /v2/login', async () => {
      fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: { token: 'n' } }));
      await api.post('/v2/login', { username: 'a', password: 'b' });
      const init = fetchMock.mock.calls[0]![1];
      expect(new Headers(init?.headers).has('Authorization')).toBe(false);
      expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    });
  });

  it('code 200: resolves with data', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: { url: 'x' } }));
    await expect(api.get('/v2/sys/monitor/url')).resolves.toEqual({ url: 'x' });
    expect(errorSpy).not.toHaveBeenCalled();
  });

  it('code 401: login-expired message, session forgotten, sent to login', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 401, msg: 'unauthorised', data: null }, 401));
    const error = await rejection(api.get('/v2/site/list'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(401);
    expect(shownErrors()).toEqual(['Your login has expired, please sign in again']);
    expect(getToken()).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.cid)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.alarmList)).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('code 403: no-access message', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 403, msg: 'forbidden', data: null }, 403));
    const error = await rejection(api.get('/v2/org/list'));
    expect(error.code).toBe(403);
    expect(shownErrors()).toEqual(['You have no access permission']);
    expect(getToken()).toBe('secret');
  });

  it('other codes: the server message is shown and field messages are kept', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        { code: 400, msg: 'Invalid input', data: { fields: { name: 'Name is required', n: 3 } } },
        400,
      ),
    );
    const error = await rejection(api.post('/v2/site/edit/1', {}));
    expect(error.code).toBe(400);
    expect(error.msg).toBe('Invalid input');
    expect(error.fields).toEqual({ name: 'Name is required' });
    expect(shownErrors()).toEqual(['Invalid input']);
  });

  it.each([404, 409, 413, 415, 429, 500])('code %i: the server message is shown', async (code) => {
    fetchMock.mockResolvedValue(jsonResponse({ code, msg: `server says ${code}`, data: null }, code));
    const error = await rejection(api.get('/v2/anything'));
    expect(error.code).toBe(code);
    expect(shownErrors()).toEqual([`server says ${code}`]);
    expect(getToken()).toBe('secret');
  });

  it('other code without a message: a default error is shown', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 500, msg: '', data: null }, 500));
    await rejection(api.get('/v2/anything'));
    expect(shownErrors()).toEqual(['Error']);
  });

  it('error messages stay 5000 ms', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 409, msg: 'conflict', data: null }, 409));
    await rejection(api.get('/v2/anything'));
    expect(MESSAGE_DURATION_MS).toBe(5000);
    expect(errorSpy.mock.calls[0]![0]).toMatchObject({ duration: 5000 });
  });

  describe('code 50012: the session was ended elsewhere', () => {
    afterEach(async () => {
      const cancel = screen.queryByRole('button', { name: 'Cancel' });
      if (cancel) {
        fireEvent.click(cancel);
      }
      await waitFor(() => expect(screen.queryByText('Confirm logout')).toBeNull());
    });

    it('opens one blocking Confirm logout dialog; Cancel stays', async () => {
      fetchMock.mockImplementation(async () =>
        jsonResponse({ code: 50012, msg: 'Signed out elsewhere', data: null }, 401),
      );
      const first = await rejection(api.get('/v2/site/list'));
      await rejection(api.get('/v2/dev/list/1'));
      expect(first.code).toBe(50012);
      expect(await screen.findByText('Confirm logout')).toBeInTheDocument();
      expect(screen.getAllByText('Confirm logout')).toHaveLength(1);
      expect(
        screen.getByText('You have been logged out. You can cancel to stay on this page, or sign in again.'),
      ).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByText('Confirm logout')).toBeNull());
      expect(relogin).not.toHaveBeenCalled();
      expect(onUnauthorized).not.toHaveBeenCalled();
      expect(getToken()).toBe('secret');
    });

    it('Re-Login signs out and reloads', async () => {
      fetchMock.mockResolvedValue(jsonResponse({ code: 50012, msg: 'ended', data: null }, 401));
      await rejection(api.get('/v2/site/list'));
      fireEvent.click(await screen.findByRole('button', { name: 'Re-Login' }));
      await waitFor(() => expect(relogin).toHaveBeenCalledTimes(1));
    });

    it('is not used for the user-info call, whose failure signs the user out instead', async () => {
      fetchMock.mockResolvedValue(jsonResponse({ code: 50012, msg: 'ended', data: null }, 401));
      const error = await rejection(api.get('/v2/user/info'));
      expect(error.code).toBe(50012);
      expect(screen.queryByText('Confirm logout')).toBeNull();
      expect(shownErrors()).toEqual(['ended']);
    });
  });

  describe('no code', () => {
    it('returns the data that came back', async () => {
      fetchMock.mockResolvedValue(jsonResponse({ data: { ready: true } }));
      await expect(api.get('/healthz')).resolves.toEqual({ ready: true });
      fetchMock.mockResolvedValue(jsonResponse([1, 2]));
      await expect(api.get('/healthz')).resolves.toEqual([1, 2]);
      expect(errorSpy).not.toHaveBeenCalled();
    });

    it('shows the query-timeout message when nothing came back', async () => {
      fetchMock.mockResolvedValue(new Response('', { status: 200 }));
      const error = await rejection(api.get('/readyz'));
      expect(error.msg).toBe('The query timed out, please try again');
      expect(shownErrors()).toEqual(['The query timed out, please try again']);
    });
  });

  describe('transport errors', () => {
    it('status 401 without an envelope: login expired, token cleared', async () => {
      fetchMock.mockResolvedValue(new Response('Unauthorized', { status: 401 }));
      const error = await rejection(api.get('/v2/site/list'));
      expect(error.code).toBe(401);
      expect(shownErrors()).toEqual(['Your login has expired, please sign in again']);
      expect(getToken()).toBeNull();
      expect(onUnauthorized).toHaveBeenCalled();
    });

    it('status -1: login expired, token cleared', async () => {
      fetchMock.mockResolvedValue({
        status: -1,
        ok: false,
        text: async () => '',
      } as unknown as Response);
      const error = await rejection(api.get('/v2/site/list'));
      expect(error.code).toBe(-1);
      expect(shownErrors()).toEqual(['Your login has expired, please sign in again']);
      expect(getToken()).toBeNull();
    });

    it('another status: the error is shown and the call rejected', async () => {
      fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
      const error = await rejection(api.get('/v2/site/list'));
      expect(error.code).toBe(502);
      expect(shownErrors()).toEqual(['Request failed (HTTP 502)']);
      expect(getToken()).toBe('secret');
    });

    it('network failure: request-timeout message', async () => {
      fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
      const error = await rejection(api.get('/v2/site/list'));
      expect(error.code).toBe(0);
      expect(shownErrors()).toEqual(['The request timed out, please try again later']);
    });

    it(`gives up after ${REQUEST_TIMEOUT_MS} ms with the request-timeout message`, async () => {
      vi.useFakeTimers();
      fetchMock.mockImplementation(
        (_url, init) =>
          new Promise((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            );
          }),
      );
      const pending = rejection(request('/v2/summary/all'));
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      expect(errorSpy).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      const error = await pending;
      expect(error.msg).toBe('The request timed out, please try again later');
      expect(shownErrors()).toEqual(['The request timed out, please try again later']);
    });

    it('a call the caller cancelled is not reported', async () => {
      fetchMock.mockImplementation(
        (_url, init) =>
          new Promise((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            );
          }),
      );
      const controller = new AbortController();
      const pending = request('/v2/summary/all', { signal: controller.signal });
      controller.abort();
      await expect(pending).rejects.toThrow('aborted');
      expect(errorSpy).not.toHaveBeenCalled();
    });
  });

  it('handleErrors false: rejects with the server message and does nothing else', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 401, msg: 'Wrong password', data: null }, 401));
    const error = await rejection(api.post('/v2/login', {}, { handleErrors: false }));
    expect(error.msg).toBe('Wrong password');
    expect(errorSpy).not.toHaveBeenCalled();
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(getToken()).toBe('secret');
  });
});
