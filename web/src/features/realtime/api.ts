import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** A station on the wall: the live part of GET /v2/site/list. */
export interface WallStation {
  id: number;
  name: string;
  location: string;
  country: string;
  capacityKwp: number;
  currentPowerKw: number;
  powerNormalization: number;
  dailyEnergyKwh: number;
  communicationStatus: number;
  alarmExist: number;
  latestAlarm: string;
  devicesOnline: number;
  devicesTotal: number;
  lastSeen: string | null;
}

interface Page {
  list: WallStation[];
  total: number;
}

export const WALL_KEY = ['realtime', 'stations'] as const;

/** Every visible top-level station with its live state (200 at most, the list's page limit). */
export const wallQuery = queryOptions({
  queryKey: WALL_KEY,
  queryFn: ({ signal }) => api.get<Page>('/v2/site/list', { query: { page: 1, pageSize: 200 }, signal }),
  // no polling: the push's "live" frames ask for a new read
  staleTime: Infinity,
  refetchOnWindowFocus: false,
});

export function useWall() {
  return useQuery(wallQuery);
}
