import type { WallStation } from './api';
import { wallView } from './wall-view';

const station = (id: number, name: string, over: Partial<WallStation> = {}): WallStation => ({
  id,
  name,
  location: 'Somewhere',
  country: 'CN',
  capacityKwp: 100,
  currentPowerKw: 0,
  powerNormalization: 0,
  dailyEnergyKwh: 0,
  communicationStatus: 2,
  alarmExist: 0,
  latestAlarm: '',
  devicesOnline: 1,
  devicesTotal: 1,
  lastSeen: null,
  ...over,
});

const LIST = [
  station(1, 'Golmud', { currentPowerKw: 50, powerNormalization: 50 }),
  station(2, 'Almería', { currentPowerKw: 80, powerNormalization: 20, alarmExist: 1 }),
  station(3, 'Jeju', { communicationStatus: 4, location: 'Jeju-si' }),
  station(4, 'Bavaria', { communicationStatus: 3, currentPowerKw: 5, powerNormalization: 5 }),
];

describe('wall view', () => {
  it('sorts by each key, the name breaking ties', () => {
    const names = (sort: Parameters<typeof wallView>[1]) => wallView(LIST, sort, { text: '', state: 'all' }).map((s) => s.name);
    expect(names('name')).toEqual(['Almería', 'Bavaria', 'Golmud', 'Jeju']);
    expect(names('power')).toEqual(['Almería', 'Golmud', 'Bavaria', 'Jeju']);
    expect(names('normalization')).toEqual(['Golmud', 'Almería', 'Bavaria', 'Jeju']);
    expect(names('alarm')).toEqual(['Almería', 'Jeju', 'Bavaria', 'Golmud']);
    expect(names('communication')).toEqual(['Jeju', 'Bavaria', 'Almería', 'Golmud']);
  });

  it('filters by text and by state, leaving the list alone', () => {
    expect(wallView(LIST, 'name', { text: 'JEJU-', state: 'all' }).map((s) => s.id)).toEqual([3]);
    expect(wallView(LIST, 'name', { text: '', state: 'alarm' }).map((s) => s.id)).toEqual([2]);
    expect(wallView(LIST, 'name', { text: '', state: 'offline' }).map((s) => s.id)).toEqual([4, 3]);
    expect(wallView(LIST, 'name', { text: '', state: 'producing' }).map((s) => s.id)).toEqual([2, 4, 1]);
    expect(LIST.map((s) => s.id)).toEqual([1, 2, 3, 4]);
  });
});
