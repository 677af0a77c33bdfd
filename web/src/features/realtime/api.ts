import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';

/** A station on the wall: the live part of GET /v2/site/list. */
export type WallStation = Pick<
  Schemas['ListItem'],
  | 'id'
  | 'name'
  | 'location'
  | 'country'
  | 'capacityKwp'
  | 'currentPowerKw'
  | 'powerNormalization'
  | 'dailyEnergyKwh'
  | 'communicationStatus'
  | 'alarmExist'
  | 'latestAlarm'
  | 'devicesOnline'
  | 'devicesTotal'
  | 'lastSeen'
>;

export const WALL_KEY = ['realtime', 'stations'] as const;

/** Every visible top-level station with its live state (200 at most, the list's page limit). */
export const wallQuery = queryOptions({
  queryKey: WALL_KEY,
  queryFn: ({ signal }) => typedApi.get('/v2/site/list', { query: { page: 1, pageSize: 200 } }, { signal }),
  // no polling: the push's "live" frames ask for a new read
  staleTime: Infinity,
  refetchOnWindowFocus: false,
});

export function useWall() {
  return useQuery(wallQuery);
}
