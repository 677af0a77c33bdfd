import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIVE_QUERY } from '@/lib/query-client';

/** GET /v2/summary/topdevices: inverters ranked by today's equivalent hours. */
export interface TopDevice {
  rank: number;
  id: number;
  name: string;
  sn: string;
  stationId: number;
  stationName: string;
  type: string;
  todayKwh: number;
  equivalentHours: number;
  currentPowerKw: number;
}

/** GET /v2/summary/projectranking: stations ranked by today's alarms. */
export interface ProjectRank {
  rank: number;
  stationId: number;
  name: string;
  faultToday: number;
  faultProcess: number;
  faultProcessRatio: number;
}

/** GET /v2/summary/maintenanceranking: users ranked by alarms dealt in the last 30 days. */
export interface MaintenanceRank {
  rank: number;
  userId: number;
  name: string;
  finishCount: number;
}

/** SPEC.md section 9: a Top 6 of devices, top lists of 10 rows. */
export const TOP_DEVICES = 6;
export const TOP_LIST = 10;

export const topDevicesQuery = queryOptions({
  queryKey: ['summary', 'topdevices', TOP_DEVICES],
  queryFn: ({ signal }) => api.get<TopDevice[]>('/v2/summary/topdevices', { signal, query: { limit: TOP_DEVICES } }),
  ...LIVE_QUERY,
});

export const projectRankingQuery = queryOptions({
  queryKey: ['summary', 'projectranking', TOP_LIST],
  queryFn: ({ signal }) =>
    api.get<ProjectRank[]>('/v2/summary/projectranking', { signal, query: { limit: TOP_LIST } }),
  ...LIVE_QUERY,
});

export const maintenanceRankingQuery = queryOptions({
  queryKey: ['summary', 'maintenanceranking', TOP_LIST],
  queryFn: ({ signal }) =>
    api.get<MaintenanceRank[]>('/v2/summary/maintenanceranking', { signal, query: { limit: TOP_LIST } }),
  staleTime: 60_000,
});

export function useTopDevices() {
  return useQuery(topDevicesQuery);
}

export function useProjectRanking() {
  return useQuery(projectRankingQuery);
}

export function useMaintenanceRanking() {
  return useQuery(maintenanceRankingQuery);
}
