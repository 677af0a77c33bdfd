import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiData } from '@/lib/api-typed';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { MonitorPage } from './monitor-page';

const period = (value: number, previous: number, change: number, compare?: string) => ({ value, previous, change, compare });

/** The server's answers, each checked against its route's generated type. */
const DATA: Record<string, unknown> = {
  '/v2/summary/all': {
    stations: 9,
    capacityKwp: 14672.02,
    devices: 195,
    devicesOnline: 188,
    devicesFault: 2,
    onlineRatio: 96.41,
    faultRatio: 1.03,
    currentPowerKw: 1758.1,
    powerNormalization: 11.98,
    energyKwh: { day: period(21135.8, 56421.6, -62.5, 'sameTimeYesterday'), month: period(1184663, 2086291, -43.2), year: period(2e7, 2e6, 900), total: period(2.4e7, 0, 0) },
    co2ReductionKg: { day: period(10039.5, 26800, -62.5), month: period(562715, 990988, -43.2), year: period(9.5e6, 9.5e5, 900), total: period(1.1e7, 0, 0) },
    profit: [{ currency: 'CNY', day: 120.5, month: 121117, year: 2024958, total: 2251659 }],
    profitBase: null,
    emissionFactorKgPerKwh: 0.475,
  } satisfies ApiData<'/v2/summary/all', 'get'>,
  '/v2/site/simplelist': [{ id: 1, parentId: 0, name: 'Golmud Desert PV Plant', timezone: 'Asia/Shanghai' }] satisfies ApiData<'/v2/site/simplelist', 'get'>,
  '/v2/site/weather/1': {
    available: true,
    time: '2026-11-21T22:28:28Z',
    code: '007',
    key: 'high_thin_clouds',
    group: 'cloud',
    temperatureC: -7.1,
    irradianceWm2: 0,
    airQuality: 2,
    airQualityKey: 'good',
    windMs: 2,
    sunElevationDeg: -23.1,
  } satisfies ApiData<'/v2/site/weather/{stationId}', 'get'>,
  '/v2/summary/topdevices': [
    { rank: 1, id: 45, name: 'INV-02', sn: 'SF1', stationId: 7, stationName: 'Kern Valley', type: 'inverter', todayKwh: 629.8, equivalentHours: 4.17, currentPowerKw: 72.1 },
  ] satisfies ApiData<'/v2/summary/topdevices', 'get'>,
  '/v2/summary/projectranking': [{ rank: 1, stationId: 1, name: 'Golmud Desert PV Plant', faultToday: 3, faultProcess: 1, faultProcessRatio: 33.3 }] satisfies ApiData<'/v2/summary/projectranking', 'get'>,
  '/v2/summary/maintenanceranking': [] satisfies ApiData<'/v2/summary/maintenanceranking', 'get'>,
  '/v2/summary/powerdata/day': {
    period: 'day',
    timezone: 'UTC',
    unit: 'kWh',
    baseCurrency: 'CNY',
    unconverted: [],
    points: [],
  } satisfies ApiData<'/v2/summary/powerdata/day', 'get'>,
  '/v2/plan/list': {
    year: 2026,
    unit: 'kWh',
    planKwh: 10,
    planToDateKwh: 10,
    actualKwh: 9,
    completion: 90,
    completionToDate: 90,
    months: [{ month: 1, planKwh: 10, actualKwh: 9, completion: 90 }],
    stations: [],
  } satisfies ApiData<'/v2/plan/list', 'get'>,
  '/v2/warn/typetrendbydate': {
    type: 'day',
    from: '',
    to: '',
    list: [{ id: '2026-11-21', date: '2026-11-21', inverter: 1, battery: 0, storage: 0, meter: 2, collector: 0 }],
  } satisfies ApiData<'/v2/warn/typetrendbydate', 'get'>,
};

function serve() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://helio.test').pathname;
    if (path in DATA) {
      return jsonResponse({ code: 200, msg: 'ok', data: DATA[path] });
    }
    return jsonResponse({ code: 404, msg: 'Not found', data: null }, 404);
  });
}

describe('monitor page', () => {
  beforeEach(() => {
    act(() => void i18n.changeLanguage('en-US'));
    queryClient.clear();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    queryClient.clear();
    act(() => void i18n.changeLanguage('zh-CN'));
  });

  it('shows the fleet\'s figures from the server with their units', async () => {
    serve();
    renderWithProviders(<MonitorPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Monitoring centre' })).toBeInTheDocument();
    const generation = screen.getByRole('region', { name: 'Power and generation' });
    expect(await within(generation).findByText('1.76')).toBeInTheDocument();
    expect(within(generation).getByText('MW')).toBeInTheDocument();
    expect(within(generation).getByText('21.14')).toBeInTheDocument();
    expect(within(generation).getAllByText(/-62.5%/)).toHaveLength(2);
    // the tooltip says what is compared
    await vi.waitFor(() =>
      expect(within(generation).getAllByText(/-62.5%/)[0]).toHaveAttribute(
        'title',
        "Today until now against yesterday until the same local time, in each station's time zone",
      ),
    );
    expect(within(generation).getByText('CN¥120.50')).toBeInTheDocument();
    const devices = screen.getByRole('region', { name: 'Devices' });
    expect(within(devices).getByText('188 / 195')).toBeInTheDocument();
  });

  it('switches the generation period', async () => {
    serve();
    renderWithProviders(<MonitorPage />);
    const generation = screen.getByRole('region', { name: 'Power and generation' });
    await within(generation).findByText('Generation today');
    await userEvent.click(within(generation).getByRole('radio', { name: 'Month' }));
    expect(within(generation).getByText('Generation this month')).toBeInTheDocument();
    expect(within(generation).getByText('1.18')).toBeInTheDocument();
    expect(within(generation).getAllByText(/vs last month/).length).toBeGreaterThan(0);
  });

  it('translates the weather condition and the air quality', async () => {
    serve();
    renderWithProviders(<MonitorPage />);
    const weather = screen.getByRole('region', { name: 'Weather' });
    // the condition by its name, its code only as the name's hint
    expect(await within(weather).findByText('High thin clouds')).toHaveAttribute('title', 'Weather code 007');
    expect(within(weather).queryByText(/007/)).toBeNull();
    expect(within(weather).getByText('-7.1 °C')).toBeInTheDocument();
    expect(within(weather).getByText('2 · Good')).toBeInTheDocument();
  });

  it('gives each widget its own empty and error state', async () => {
    serve();
    renderWithProviders(<MonitorPage />);
    // alarms today: the call fails
    const alarms = screen.getByRole('region', { name: 'Alarms today' });
    expect(await within(alarms).findByRole('alert')).toHaveTextContent('The data could not be loaded');
    expect(within(alarms).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    // no alarm dealt with in 30 days
    const maintenance = screen.getByRole('region', { name: 'Maintenance ranking' });
    expect(await within(maintenance).findByText('No alarms dealt in the last 30 days')).toBeInTheDocument();
    // no power points today
    const profit = screen.getByRole('region', { name: 'Generation and profit' });
    expect(await within(profit).findByText('No data')).toBeInTheDocument();
    // rankings and charts with data
    expect(await screen.findByRole('button', { name: 'INV-02' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Fault trend' })).toBeInTheDocument();
  });

  it('refreshes real-time figures on its own', async () => {
    const { fleetSummaryQuery } = await import('./api/summary');
    expect(fleetSummaryQuery.refetchInterval).toBe(30_000);
    expect(fleetSummaryQuery.refetchOnWindowFocus).toBe(true);
  });

  it('is translated', async () => {
    act(() => void i18n.changeLanguage('ja-JP'));
    serve();
    renderWithProviders(<MonitorPage />);
    expect(await screen.findByText('本日の発電量')).toBeInTheDocument();
  });
});
