import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type ListSort, sortQuery } from '@/components/list/list-sort';
import { type ApiQuery, type Schemas, typedApi } from '@/lib/api-typed';
import { downloadFile } from '@/lib/download';
import { LIVE_QUERY, queryClient } from '@/lib/query-client';

export const DEVICE_TYPES = ['inverter', 'battery', 'storage', 'meter'] as const;
export const DEVICE_STATES = ['running', 'standby', 'fault', 'offline'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** A device as stored (internal/device/device.go). */
export type Device = Schemas['Device'];
/** A device of the list, with what it is doing now; specificYield is null without an array. */
export type DeviceItem = Schemas['Item'];
/** A device's latest sample (internal/telemetry/sample.go). */
export type Sample = Schemas['Sample'];
export type DeviceDetail = Schemas['Detail'];
export type DeviceSummary = Schemas['Summary'];
export type InverterStatus = Schemas['InverterStatus'];
export type Attribute = Schemas['Attribute'];

export const METRICS = [
  'power',
  'energy',
  'energy2',
  'dcVoltage',
  'dcCurrent',
  'acVoltage',
  'frequency',
  'temperature',
  'soc',
  'irradiance',
] as const;
export type Metric = (typeof METRICS)[number];

/** The history metrics a device type measures. */
export function metricsFor(type: string): Metric[] {
  switch (type) {
    case 'inverter':
      return ['power', 'energy', 'dcVoltage', 'dcCurrent', 'acVoltage', 'frequency', 'temperature', 'irradiance'];
    case 'battery':
    case 'storage':
      return ['power', 'soc', 'energy', 'energy2', 'dcVoltage', 'dcCurrent', 'acVoltage', 'frequency', 'temperature'];
    case 'meter':
      return ['power', 'energy', 'energy2', 'acVoltage', 'frequency'];
    default:
      return [...METRICS];
  }
}

export type History = Schemas['History'];

/** The columns the device list sorts by on the server (internal/device/sort.go). */
export const DEVICE_SORTS = ['todayKwh', 'equivalentHours', 'specificYield', 'currentPowerKw', 'totalKwh'] as const;

export interface DeviceFilters extends ListSort {
  stationId?: number;
  type?: string;
  state?: string;
  name?: string;
  page: number;
  pageSize: number;
}

type DeviceListQuery = ApiQuery<'/v2/dev/listbytype'>;

/** The list's query; the filters come from the address, and the server refuses by name any value outside its enums. */
export function deviceFilterQuery(filters: Omit<DeviceFilters, 'page' | 'pageSize'>): DeviceListQuery {
  return {
    stationId: filters.stationId || undefined,
    type: (filters.type || undefined) as DeviceListQuery['type'],
    state: (filters.state || undefined) as DeviceListQuery['state'],
    name: filters.name || undefined,
    ...(sortQuery(filters) as Pick<DeviceListQuery, 'sort' | 'order'>),
  };
}

export const deviceSummaryQuery = queryOptions({
  queryKey: ['dev', 'summary'],
  queryFn: ({ signal }) => typedApi.get('/v2/dev/summary', undefined, { signal }),
  ...LIVE_QUERY,
});

export const inverterStatusQuery = queryOptions({
  queryKey: ['dev', 'inverterstatus'],
  queryFn: ({ signal }) => typedApi.get('/v2/dev/inverterstatus', undefined, { signal }),
  ...LIVE_QUERY,
});

export function useDeviceSummary() {
  return useQuery(deviceSummaryQuery);
}

export function useInverterStatus() {
  return useQuery(inverterStatusQuery);
}

export function useDeviceList(filters: DeviceFilters) {
  return useQuery({
    queryKey: ['dev', 'listbytype', filters],
    queryFn: ({ signal }) =>
      typedApi.get('/v2/dev/listbytype', { query: { ...deviceFilterQuery(filters), page: filters.page, pageSize: filters.pageSize } }, { signal }),
    ...LIVE_QUERY,
    placeholderData: keepPreviousData,
  });
}

export function useDeviceDetail(id: number, enabled = true) {
  return useQuery({
    queryKey: ['dev', 'detail', id],
    queryFn: ({ signal }) => typedApi.get('/v2/dev/detail/{deviceId}', { path: { deviceId: id } }, { signal }),
    ...LIVE_QUERY,
    enabled: enabled && id > 0,
  });
}

export function useAttributes(id: number) {
  return useQuery({
    queryKey: ['dev', 'attribute', id],
    queryFn: ({ signal }) => typedApi.get('/v2/dev/attribute/{uid}', { path: { uid: id } }, { signal }),
    ...LIVE_QUERY,
  });
}

export function useHistory(id: number, metric: Metric, from: string, to: string) {
  return useQuery({
    queryKey: ['dev', 'history', id, metric, from, to],
    queryFn: ({ signal }) => typedApi.get('/v2/dev/history/{deviceId}', { path: { deviceId: id }, query: { metric, from, to } }, { signal }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** The devices of a station (with its sub-stations'), for the parent picker. */
export function fetchStationDevices(stationId: number) {
  return queryClient.fetchQuery({
    queryKey: ['dev', 'list', stationId],
    queryFn: ({ signal }) => typedApi.get('/v2/dev/list/{uid}', { path: { uid: stationId } }, { signal }),
    staleTime: 30_000,
  });
}

/** The body of POST /v2/dev/add and /v2/dev/edit/{id}. */
export type DeviceInput = Schemas['Input'];

export function useSaveDevice() {
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: DeviceInput }) =>
      id ? typedApi.post('/v2/dev/edit/{uid}', { path: { uid: id }, body: input }) : typedApi.post('/v2/dev/add', { body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['dev'] }),
  });
}

/** Downloads the filtered device list (GET /v2/dev/export). */
export function exportDevices(format: 'csv' | 'xlsx', filters: Omit<DeviceFilters, 'page' | 'pageSize'>) {
  return downloadFile('/v2/dev/export', { format, ...deviceFilterQuery(filters) }, `devices.${format}`);
}
