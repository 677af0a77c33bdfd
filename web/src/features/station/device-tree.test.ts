import type { DeviceItem } from './api/types';
import { buildDeviceTree } from './device-tree';

/** A device of GET /v2/dev/list/{uid}, every field the server sends filled in. */
const device = (id: number, stationId: number, parentId = 0): DeviceItem => ({
  id,
  stationId,
  stationName: `S${stationId}`,
  parentId,
  name: `D${id}`,
  sn: `SN${id}`,
  type: 'inverter',
  model: '',
  customType: '',
  collectorSn: '',
  meterPosition: '',
  state: 'running',
  currentPowerKw: 0,
  ratedPowerKw: 0,
  capacityKwh: 0,
  componentCapacityKwp: 0,
  componentCount: 0,
  componentRatedPowerW: 0,
  stringsEnabled: 0,
  stringsTotal: 0,
  soc: 0,
  specificYield: null,
  todayKwh: 0,
  totalKwh: 0,
  lastSeen: null,
  createTime: '2026-01-01T00:00:00Z',
  updateTime: '2026-01-01T00:00:00Z',
});

describe('station device tree', () => {
  it('hangs devices under their parent device or their (sub-)station', () => {
    const tree = buildDeviceTree({ id: 1, name: 'Plant' }, [{ id: 2, name: 'Array A' }], [
      device(10, 1),
      device(11, 1, 10),
      device(20, 2),
      device(21, 2, 99),
    ]);
    expect(tree).toHaveLength(1);
    const [root] = tree;
    expect(root!.key).toBe('s:1');
    expect(root!.children!.map((node) => node.key)).toEqual(['d:10', 's:2']);
    expect(root!.children![0]!.children!.map((node) => node.key)).toEqual(['d:11']);
    // a parent outside the list: the device hangs under its station
    expect(root!.children![1]!.children!.map((node) => node.key)).toEqual(['d:20', 'd:21']);
  });
});
