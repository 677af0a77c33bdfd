import type { DeviceItem } from './api/types';
import { buildDeviceTree } from './device-tree';

const device = (id: number, stationId: number, parentId = 0) => ({ id, stationId, parentId, name: `D${id}` }) as DeviceItem;

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
