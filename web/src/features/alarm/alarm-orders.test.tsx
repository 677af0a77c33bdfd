import { screen } from '@testing-library/react';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { AlarmDetailDrawer } from './alarm-detail';
import { alarmTexts } from './texts';

const fetchMock = vi.fn<typeof fetch>();

const order = (id: number, status: number) => ({
  id,
  number: `WO-20261127-00000${id}`,
  title: '逆变器报告故障并已停机',
  status,
  open: status <= 3,
  submitTime: '2026-11-27T08:00:00Z',
  updateTime: '2026-11-27T09:00:00Z',
});

function detail(orders: ReturnType<typeof order>[]) {
  return {
    id: 42,
    stationId: 1,
    stationName: 'Golmud',
    parentStationId: 0,
    timezone: 'Asia/Shanghai',
    deviceId: 3,
    deviceName: 'INV-01',
    deviceSn: 'SN-1',
    deviceType: 'inverter',
    rule: 'inverter_fault',
    ruleName: '逆变器故障',
    type: 1,
    level: 2,
    alarmStatus: 1,
    dealStatus: 0,
    description: '逆变器报告故障并已停机',
    occurTime: '2026-11-27T07:00:00Z',
    startTime: '2026-11-27T07:00:00Z',
    lastAlarmTime: '2026-11-27T07:00:00Z',
    recoveryTime: null,
    durationMin: 60,
    reason: '',
    dealMethod: 0,
    dealMethodName: '',
    dealBy: '',
    dealTime: null,
    deals: [],
    orders,
    openOrder: orders.find((o) => o.open) ?? null,
  };
}

describe('the alarm drawer and its work orders', () => {
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

  it('offers "View work order" while one is open, and lists the orders with their status and links', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: detail([order(7, 3), order(5, 4)]) }));
    renderWithProviders(<AlarmDetailDrawer id={42} onClose={() => {}} />);
    expect(await screen.findByRole('button', { name: '查看工单' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '创建工单' })).toBeNull();
    expect(screen.getByRole('link', { name: '工单 WO-20261127-000007' })).toHaveAttribute('href', expect.stringContaining('detail=7'));
    expect(screen.getByTestId('alarm-order-7')).toHaveTextContent('执行中');
    expect(screen.getByTestId('alarm-order-5')).toHaveTextContent('已完成');
  });

  it('offers to open one when none is open', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: detail([order(5, 4)]) }));
    renderWithProviders(<AlarmDetailDrawer id={42} onClose={() => {}} />);
    expect(await screen.findByRole('button', { name: '创建工单' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '查看工单' })).toBeNull();
  });
});
