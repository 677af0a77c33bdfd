import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { LIVE_QUERY } from '@/lib/query-client';

/** GET /v2/summary/topdevices: inverters ranked by today's equivalent hours. */
export type TopDevice = Schemas['TopDevice'];

/** GET /v2/summary/projectranking: stations ranked by today's alarms. */
export type ProjectRank = Schemas['ProjectRank'];

/** GET /v2/summary/maintenanceranking: users ranked by alarms dealt in the last 30 days. */
export type MaintenanceRank = Schemas['MaintenanceRank'];

/** SPEC.md section 9: a Top 6 of devices, top lists of 10 rows. */
export const TOP_DEVICES = 6;
export const TOP_LIST = 10;

export const topDevicesQuery = queryOptions({
  queryKey: ['summary', 'topdevices', TOP_DEVICES],
  queryFn: ({ signal }) => typedApi.get('/v2/summary/topdevices', { query: { limit: TOP_DEVICES } }, { signal }),
  ...LIVE_QUERY,
});

export const projectRankingQuery = queryOptions({
  queryKey: ['summary', 'projectranking', TOP_LIST],
  queryFn: ({ signal }) =>
    typedApi.get('/v2/summary/projectranking', { query: { limit: TOP_LIST } }, { signal }),
  ...LIVE_QUERY,
});

export const maintenanceRankingQuery = queryOptions({
  queryKey: ['summary', 'maintenanceranking', TOP_LIST],
  queryFn: ({ signal }) =>
    typedApi.get('/v2/summary/maintenanceranking', { query: { limit: TOP_LIST } }, { signal }),
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
