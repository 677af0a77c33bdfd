import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { DealDialog } from './deal-dialog';
import { alarmTexts } from './texts';

const fetchMock = vi.fn<typeof fetch>();
const alarm = { id: 42, deviceName: 'INV-01', description: 'Inverter fault (trip)' };

describe('DealDialog', () => {
  beforeAll(() => alarmTexts.ready('zh-CN'));
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('refuses an empty reason and a missing method before calling the server', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DealDialog alarm={alarm} visible onClose={() => {}} />);
    await user.click(await screen.findByRole('button', { name: '提交' }));
    expect(await screen.findByText('请填写处理原因')).toBeInTheDocument();
    expect(screen.getByText('请选择处理方式')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed reason and method, then closes', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: { ...alarm, dealStatus: 1, deals: [] } }));
    renderWithProviders(<DealDialog alarm={alarm} visible onClose={onClose} />);
    await user.click(await screen.findByRole('radio', { name: '远程复位' }));
    await user.type(screen.getByRole('textbox', { name: '处理原因' }), '  reset from the console  ');
    await user.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/v2/warn/deal/42');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ reason: 'reset from the console', dealMethod: 1 });
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer t');
  });

  it('puts the server\'s message for each bad field beside the field', async () => {
    const user = userEvent.setup();
    fetchMock.mockResolvedValue(
      jsonResponse(
        { code: 400, msg: '输入有误', data: { fields: { reason: '服务器：原因不能包含该字符', dealMethod: '服务器：方式无效' } } },
        400,
      ),
    );
    renderWithProviders(<DealDialog alarm={alarm} visible onClose={() => {}} />);
    await user.click(await screen.findByRole('radio', { name: '误报' }));
    await user.type(screen.getByRole('textbox', { name: '处理原因' }), 'x');
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('服务器：原因不能包含该字符')).toBeInTheDocument();
    expect(screen.getByText('服务器：方式无效')).toBeInTheDocument();
  });

  it('refuses a reason longer than 200 characters', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DealDialog alarm={alarm} visible onClose={() => {}} />);
    await user.click(await screen.findByRole('radio', { name: '其他' }));
    const reason = screen.getByRole('textbox', { name: '处理原因' });
    await user.click(reason);
    await user.paste('x'.repeat(201));
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('处理原因最多 200 个字符')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
