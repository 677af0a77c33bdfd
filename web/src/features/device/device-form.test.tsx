import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { DeviceItem } from './api/devices';
import { DeviceForm, toDeviceInput } from './device-form';
import { deviceNodes } from './parent-picker';

const user = userEvent.setup({ pointerEventsCheck: 0 });

const STATIONS = [
  { id: 1, parentId: 0, name: 'Golmud', timezone: 'Asia/Shanghai' },
  { id: 2, parentId: 1, name: 'Golmud · Array A', timezone: 'Asia/Shanghai' },
];

/** A device of the list as GET /v2/dev/list/{uid} answers it: an idle inverter unless told. */
function listItem(fields: Partial<DeviceItem> = {}): DeviceItem {
  return {
    id: 1,
    parentId: 0,
    stationId: 1,
    stationName: 'Golmud',
    name: 'D1',
    sn: 'SN1',
    type: 'inverter',
    customType: '',
    model: '',
    state: 'offline',
    ratedPowerKw: 0,
    capacityKwh: 0,
    componentCapacityKwp: 0,
    componentCount: 0,
    componentRatedPowerW: 0,
    stringsTotal: 0,
    stringsEnabled: 0,
    meterPosition: '',
    collectorSn: '',
    currentPowerKw: 0,
    todayKwh: 0,
    totalKwh: 0,
    soc: 0,
    specificYield: null,
    lastSeen: null,
    createTime: '2026-01-01T00:00:00Z',
    updateTime: '2026-01-01T00:00:00Z',
    ...fields,
  };
}

function renderForm(initialValues = {}, onSubmit = vi.fn().mockResolvedValue(undefined)) {
  renderWithProviders(<DeviceForm initialValues={initialValues} onSubmit={onSubmit} onCancel={() => {}} />);
  return onSubmit;
}

describe('device form', () => {
  beforeEach(() => {
    act(() => void i18n.changeLanguage('en-US'));
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse({ code: 200, msg: 'ok', data: STATIONS }));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    act(() => void i18n.changeLanguage('zh-CN'));
  });

  it('requires parent, name, serial number and type (SPEC.md section 5)', async () => {
    const onSubmit = renderForm();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    for (const field of ['Parent', 'Device name', 'Serial number', 'Device type']) {
      expect(await screen.findByText(`${field} is required`)).toBeInTheDocument();
    }
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks the serial number format and what the type needs', async () => {
    const onSubmit = renderForm({ parent: { stationId: 1, parentId: 0 }, name: 'INV-99', sn: '#1', type: 'inverter' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/^3 to 64 letters/)).toBeInTheDocument();
    expect(screen.getByText('Rated power is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('asks a meter for its position', async () => {
    renderForm({ parent: { stationId: 1, parentId: 0 }, name: 'M1', sn: 'MTR-0001', type: 'meter' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Meter position is required')).toBeInTheDocument();
  });

  it('shows the server\'s 409 on the serial number field', async () => {
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(409, 'Already exists', { sn: 'This serial number is already in use' }));
    renderForm({ parent: { stationId: 1, parentId: 0 }, name: 'INV-99', sn: 'SN-0001', type: 'inverter', ratedPowerKw: 50 }, onSubmit);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This serial number is already in use')).toBeInTheDocument();
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ stationId: 1, parentId: 0, sn: 'SN-0001', type: 'inverter', ratedPowerKw: 50 });
  });

  it('sends only the fields that apply to the type', () => {
    expect(
      toDeviceInput({ parent: { stationId: 3, parentId: 8 }, name: ' B1 ', sn: 'BAT-1', type: 'battery', capacityKwh: 10, stringsTotal: 4 }),
    ).toMatchObject({ stationId: 3, parentId: 8, name: 'B1', capacityKwh: 10, stringsTotal: 0, meterPosition: '' });
  });

  it('nests a station\'s devices by parent and leaves the device itself out', () => {
    const device = (id: number, parentId: number) => listItem({ id, parentId, stationId: 1, name: `D${id}`, sn: `SN${id}` });
    const nodes = deviceNodes(1, [device(1, 0), device(2, 1), device(3, 2), device(4, 0)], 2);
    expect(nodes.map((node) => node.key)).toEqual(['d:1', 'd:4']);
    expect(nodes[0]!.isLeaf).toBe(true);
  });
});
