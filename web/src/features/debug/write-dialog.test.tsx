import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { LiveRegister } from './api/scada';
import { debugTexts } from './texts';
import { WriteDialog } from './write-dialog';

const fetchMock = vi.fn<typeof fetch>();
const register: LiveRegister = {
  name: 'power_limit',
  model: 0,
  group: 0,
  address: 200,
  function: 'holding',
  dataType: 'uint16',
  raw: [100],
  value: 100,
  unit: '%',
  target: '',
  writable: true,
};

describe('WriteDialog', () => {
  beforeAll(() => debugTexts.ready('zh-CN'));
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('asks for a confirmation naming register, address and value before writing, then writes once', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: { deviceId: 7, registers: [] } }));
    renderWithProviders(<WriteDialog deviceId={7} register={register} onClose={onClose} />);
    expect(await screen.findByText('当前值：100 %')).toBeInTheDocument();
    const input = screen.getByRole('spinbutton', { name: '新值（%）' });
    await user.clear(input);
    await user.type(input, '60');
    await user.click(screen.getByRole('button', { name: '写入' }));
    expect(await screen.findByText(/确认向设备地址 200 的 power_limit 写入 60 %/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: '确认写入' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('/v1/scada/register/set');
    expect(JSON.parse(String(init?.body))).toEqual({ deviceId: 7, register: 'power_limit', value: 60, confirm: true });
  });

  it('shows the server\'s reason and stays open when the write is refused', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    fetchMock.mockResolvedValue(
      jsonResponse({ code: 400, msg: '输入有误', data: { fields: { value: '该值超出 uint16 寄存器的范围' } } }, 400),
    );
    renderWithProviders(<WriteDialog deviceId={7} register={register} onClose={onClose} />);
    await user.click(await screen.findByRole('button', { name: '写入' }));
    await user.click(screen.getByRole('button', { name: '确认写入' }));
    expect(await screen.findByText('该值超出 uint16 寄存器的范围')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
