import type { WallStation } from './api';

export type SortKey = 'name' | 'power' | 'normalization' | 'alarm' | 'communication';

export interface Filter {
  /** Part of the name or location, any case. */
  text: string;
  /** alarm: has an occurring alarm; offline: some or all devices silent; producing: power above 0. */
  state: 'all' | 'alarm' | 'offline' | 'producing';
}

const byName = (a: WallStation, b: WallStation) => a.name.localeCompare(b.name);

const ORDER: Record<SortKey, (a: WallStation, b: WallStation) => number> = {
  name: byName,
  power: (a, b) => b.currentPowerKw - a.currentPowerKw || byName(a, b),
  normalization: (a, b) => b.powerNormalization - a.powerNormalization || byName(a, b),
  // alarms first, then the worst communication
  alarm: (a, b) => b.alarmExist - a.alarmExist || b.communicationStatus - a.communicationStatus || byName(a, b),
  communication: (a, b) => b.communicationStatus - a.communicationStatus || byName(a, b),
};

/** The tiles to show: filtered, then sorted (a new array; the input is left alone). */
export function wallView(list: readonly WallStation[], sort: SortKey, filter: Filter): WallStation[] {
  const text = filter.text.trim().toLowerCase();
  return list
    .filter((s) => !text || s.name.toLowerCase().includes(text) || s.location.toLowerCase().includes(text))
    .filter((s) => {
      switch (filter.state) {
        case 'alarm':
          return s.alarmExist === 1;
        case 'offline':
          return s.communicationStatus === 3 || s.communicationStatus === 4;
        case 'producing':
          return s.currentPowerKw > 0;
        default:
          return true;
      }
    })
    .sort(ORDER[sort]);
}
