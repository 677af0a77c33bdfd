import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons';
import { type ListSort, sortQuery } from '@/components/list/list-sort';
import { type ApiQuery, typedApi } from '@/lib/api-typed';
import { downloadFile } from '@/lib/download';
import { LIVE_QUERY, queryClient } from '@/lib/query-client';
import type { StationInput } from './types';

/** The columns the station list sorts by on the server (internal/station/sort.go). */
export const STATION_SORTS = ['dailyEnergyKwh', 'dailyEquivalentHours', 'performanceRatio', 'currentPowerKw', 'alarmExist'] as const;

/** The station list's filters, as the URL and GET /v2/site/list name them. */
export interface StationFilters extends ListSort {
  name?: string;
  communicationStatus?: number;
  alarmStatus?: number;
  stationType?: string;
  systemType?: string;
  tagIds?: number[];
  page: number;
  pageSize: number;
}

/** Query parameters of the list and the export: absent filters are left out. */
export function filterQuery(filters: Omit<StationFilters, 'page' | 'pageSize'>): StationListQuery {
  return {
    name: filters.name || undefined,
    communicationStatus: filters.communicationStatus || undefined,
    alarmStatus: filters.alarmStatus ?? undefined,
    // from the address: the server refuses by name any value outside its enums
    stationType: (filters.stationType || undefined) as StationListQuery['stationType'],
    systemType: (filters.systemType || undefined) as StationListQuery['systemType'],
    tagIds: filters.tagIds?.length ? filters.tagIds : undefined,
    ...(sortQuery(filters) as Pick<StationListQuery, 'sort' | 'order'>),
  };
}

type StationListQuery = ApiQuery<'/v2/site/list'>;

export function stationListQuery(filters: StationFilters) {
  return queryOptions({
    queryKey: ['site', 'list', filters],
    queryFn: ({ signal }) =>
      typedApi.get('/v2/site/list', { query: { ...filterQuery(filters), page: filters.page, pageSize: filters.pageSize } }, { signal }),
    ...LIVE_QUERY,
    placeholderData: keepPreviousData,
  });
}

export function useStationList(filters: StationFilters) {
  return useQuery(stationListQuery(filters));
}

export function stationDetailQuery(id: number) {
  return queryOptions({
    queryKey: ['site', 'detail', id],
    queryFn: ({ signal }) => typedApi.get('/v2/site/detail/{stationId}', { path: { stationId: id } }, { signal }),
    ...LIVE_QUERY,
  });
}

export function useStationDetail(id: number, enabled = true) {
  return useQuery({ ...stationDetailQuery(id), enabled: enabled && id > 0 });
}

/** AC power over a station-local day (yyyy-MM-dd). */
export function usePowerTrend(id: number, date: string) {
  return useQuery({
    queryKey: ['site', 'powertrend', id, date],
    queryFn: ({ signal }) => typedApi.get('/v2/site/powertrendbydate/{uid}', { path: { uid: id }, query: { date } }, { signal }),
    ...LIVE_QUERY,
    placeholderData: keepPreviousData,
  });
}

/** Energy per station-local day of a month (yyyy-MM). */
export function fetchMonthEnergy(id: number, month: string, signal?: AbortSignal) {
  return typedApi.get('/v2/site/powerdatabymonth/{uid}', { path: { uid: id }, query: { date: month } }, { signal });
}

export function useMonthEnergy(id: number, month: string) {
  return useQuery({
    queryKey: ['site', 'powerdatabymonth', id, month],
    queryFn: ({ signal }) => fetchMonthEnergy(id, month, signal),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** Energy per station-local month of a year (only the months that have begun). */
export function useYearEnergy(id: number, year: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['site', 'powerdatabyyear', id, year],
    queryFn: ({ signal }) => typedApi.get('/v2/site/powerdatabyyear/{uid}', { path: { uid: id }, query: { date: String(year) } }, { signal }),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** A station's device tree (its sub-stations' devices included). */
export function useStationDevices(id: number) {
  return useQuery({
    queryKey: ['dev', 'list', id],
    queryFn: ({ signal }) => typedApi.get('/v2/dev/list/{uid}', { path: { uid: id } }, { signal }),
    ...LIVE_QUERY,
  });
}

/** A station's latest alarms (its sub-stations' included). */
export function useLatestAlarms(id: number, pageSize = 5) {
  return useQuery({
    queryKey: ['warn', 'listbysite', { stationId: id, pageSize }],
    queryFn: ({ signal }) =>
      typedApi.get('/v2/warn/listbysite', { query: { stationId: id, page: 1, pageSize } }, { signal }),
    ...LIVE_QUERY,
  });
}

function invalidateStations() {
  void queryClient.invalidateQueries({ queryKey: ['site'] });
}

export function useSaveStation() {
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: StationInput }) =>
      id ? typedApi.post('/v2/site/edit/{uid}', { path: { uid: id }, body: input }) : typedApi.post('/v2/site/add', { body: input }),
    onSuccess: invalidateStations,
  });
}

/** Uploads a 4:3 cover image (a data: URL); the answer is the address to save as coverImage. */
export function uploadCover(image: string) {
  return typedApi.post('/v2/site/upload/thumbnail', { body: { image } });
}

/** Downloads the filtered station list (GET /v2/site/export). */
export function exportStations(format: ExportFormat, filters: Omit<StationFilters, 'page' | 'pageSize'>) {
  return downloadFile('/v2/site/export', { format, ...filterQuery(filters) }, `stations.${format}`);
}
