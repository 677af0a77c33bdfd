import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@/lib/i18n';
import { getToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { LoginForm } from './login-form';

const fetchMock = vi.fn<typeof fetch>();

describe('login form', () => {
  beforeAll(() => void i18n.changeLanguage('en-US'));
  afterAll(() => void i18n.changeLanguage('zh-CN'));
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  async function fill(username: string, password: string) {
    const user = userEvent.setup();
    if (username) await user.type(screen.getByLabelText('Username'), username);
    if (password) await user.type(screen.getByLabelText('Password'), password);
    return user;
  }

  it('requires both fields, with translated messages', async () => {
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.setup().type(screen.getByLabelText('Username'), 'admin');
    expect(screen.queryByText('Username is required')).toBeNull();
  });

  it('signs in on Enter, stores the token and sends no Authorization header', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ code: 200, msg: 'ok', data: { token: 't-1', expiresAt: '2030-01-01T00:00:00Z' } }),
    );
    const onSuccess = vi.fn();
    renderWithProviders(<LoginForm onSuccess={onSuccess} />);
    const user = await fill('admin', 'helio-demo');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(getToken()).toBe('t-1');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/v2/login');
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'admin', password: 'helio-demo' });
    const headers = new Headers(init?.headers);
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.get('Accept-Language')).toBe('en-US');
  });

  it('shows the failure for wrong credentials without treating it as an expired session', async () => {
    window.localStorage.setItem('helio-cid', 'keep');
    fetchMock.mockResolvedValue(
      jsonResponse({ code: 401, msg: 'Wrong username or password', data: null }, 401),
    );
    const onSuccess = vi.fn();
    renderWithProviders(<LoginForm onSuccess={onSuccess} />);
    const user = await fill('admin', 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong username or password');
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.queryByText('Your login has expired, please sign in again')).toBeNull();
    expect(window.localStorage.getItem('helio-cid')).toBe('keep');
  });

  it('shows the server message for too many attempts', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ code: 429, msg: 'Too many attempts, try again later', data: null }, 429),
    );
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    const user = await fill('admin', 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts, try again later');
  });

  it('puts the server field messages of a 400 on the fields', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(
        { code: 400, msg: 'Invalid input', data: { fields: { username: 'Name is too long' } } },
        400,
      ),
    );
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    const user = await fill('a-very-long-name', 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Name is too long')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
  });

  it('rewrites the messages shown in the language switched to', async () => {
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    try {
      await act(async () => {
        await i18n.changeLanguage('zh-CN');
      });
      expect(screen.getByText('用户名不能为空')).toBeInTheDocument();
      expect(screen.getByText('密码不能为空')).toBeInTheDocument();
      expect(screen.queryByText('Username is required')).toBeNull();
    } finally {
      await act(async () => {
        await i18n.changeLanguage('en-US');
      });
    }
  });

  it('rewrites a failure the server explained in the language switched to', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 401, msg: 'Wrong username or password', data: null }, 401));
    renderWithProviders(<LoginForm onSuccess={vi.fn()} />);
    const user = await fill('admin', 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong username or password');
    try {
      await act(async () => {
        await i18n.changeLanguage('ja-JP');
      });
      expect(screen.getByRole('alert')).toHaveTextContent('ユーザー名またはパスワードが正しくありません');
    } finally {
      await act(async () => {
        await i18n.changeLanguage('en-US');
      });
    }
  });
});
