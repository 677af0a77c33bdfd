import { AREAS, moved } from './api';

describe('workplace shortcuts', () => {
  it('moves an item within the list, never past its ends', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('knows where every area the server offers leads', () => {
    for (const name of ['monitor', 'realtimeMonitor', 'station', 'stationTags', 'device', 'alarm', 'analysis', 'debug', 'workOrder', 'plan', 'tools', 'permission']) {
      expect(AREAS[name]?.path).toMatch(/^\//);
    }
  });
});
