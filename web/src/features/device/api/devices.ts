import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type ListSort, sortQuery } from '@/components/list/list-sort';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { LIVE_QUERY, queryClient } from '@/lib/query-client';

export const DEVICE_TYPES = ['inverter', 'battery', 'storage', 'meter'] as const;
export const DEVICE_STATES = ['running', 'standby', 'fault', 'offline'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** A device as stored (internal/device/device.go). */
export interface Device {
  id: number;
  stationId: number;
  stationName: string;
  parentId: number;
  name: string;
  sn: string;
  type: DeviceType;
  customType: string;
  model: string;
  ratedPowerKw: number;
  capacityKwh: number;
  componentCapacityKwp: number;
  componentRatedPowerW: number;
  componentCount: number;
  stringsTotal: number;
  stringsEnabled: number;
  meterPosition: string;
  collectorSn: string;
  createTime: string;
  updateTime: string;
}

export interface DeviceItem extends Device {
  state: string;
  currentPowerKw: number;
  todayKwh: number;
  totalKwh: number;
  /** Today's kWh ÷ the array's kWp (kWh/kWp, the equivalent hours); null without an array. */
  specificYield: number | null;
  soc: number;
  lastSeen: string | null;
}

/** A device's latest sample (internal/telemetry/sample.go). */
export interface Sample {
  deviceId: number;
  time: string;
  powerKw: number;
  energyKwh: number;
  energy2Kwh: number;
  dcVoltageV: number;
  dcCurrentA: number;
  acVoltageV: number;
  frequencyHz: number;
  tempC: number;
  soc: number;
  irradianceWm2: number;
  status: number;
  stringsActive: number;
}

export interface DeviceDetail extends DeviceItem {
  latest: Sample | null;
}

export interface DeviceSummary {
  total: number;
  byType: Record<string, Record<string, number>>;
  byState: Record<string, number>;
}

export interface InverterStatus {
  total: number;
  byState: Record<string, number>;
  ratedPowerKw: number;
  currentPowerKw: number;
}

export interface Attribute {
  key: string;
  value: string | number;
  unit: string;
  group: 'nameplate' | 'live';
}

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

export interface History {
  metric: string;
  resolution: string;
  unit: string;
  points: [number, number][];
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

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

export function deviceFilterQuery(filters: Omit<DeviceFilters, 'page' | 'pageSize'>) {
  return {
    stationId: filters.stationId || undefined,
    type: filters.type || undefined,
    state: filters.state || undefined,
    name: filters.name || undefined,
    ...sortQuery(filters),
  };
}

export const deviceSummaryQuery = queryOptions({
  queryKey: ['dev', 'summary'],
  queryFn: ({ signal }) => api.get<DeviceSummary>('/v2/dev/summary', { signal }),
  ...LIVE_QUERY,
});

export const inverterStatusQuery = queryOptions({
  queryKey: ['dev', 'inverterstatus'],
  queryFn: ({ signal }) => api.get<InverterStatus>('/v2/dev/inverterstatus', { signal }),
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
      api.get<Page<DeviceItem>>('/v2/dev/listbytype', {
        signal,
        query: { ...deviceFilterQuery(filters), page: filters.page, pageSize: filters.pageSize },
      }),
    ...LIVE_QUERY,
    placeholderData: keepPreviousData,
  });
}

export function useDeviceDetail(id: number, enabled = true) {
  return useQuery({
    queryKey: ['dev', 'detail', id],
    queryFn: ({ signal }) => api.get<DeviceDetail>(`/v2/dev/detail/${id}`, { signal }),
    ...LIVE_QUERY,
    enabled: enabled && id > 0,
  });
}

export function useAttributes(id: number) {
  return useQuery({
    queryKey: ['dev', 'attribute', id],
    queryFn: ({ signal }) => api.get<Attribute[]>(`/v2/dev/attribute/${id}`, { signal }),
    ...LIVE_QUERY,
  });
}

export function useHistory(id: number, metric: Metric, from: string, to: string) {
  return useQuery({
    queryKey: ['dev', 'history', id, metric, from, to],
    queryFn: ({ signal }) => api.get<History>(`/v2/dev/history/${id}`, { signal, query: { metric, from, to } }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** The devices of a station (with its sub-stations'), for the parent picker. */
export function fetchStationDevices(stationId: number) {
  return queryClient.fetchQuery({
    queryKey: ['dev', 'list', stationId],
    queryFn: ({ signal }) => api.get<DeviceItem[]>(`/v2/dev/list/${stationId}`, { signal }),
    staleTime: 30_000,
  });
}

/** The body of POST /v2/dev/add and /v2/dev/edit/{id}. */
export interface DeviceInput {
  stationId: number;
  parentId: number;
  name: string;
  sn: string;
  type: string;
  customType: string;
  model: string;
  ratedPowerKw: number;
  capacityKwh: number;
  componentRatedPowerW: number;
  componentCount: number;
  stringsTotal: number;
  stringsEnabled: number;
  meterPosition: string;
  collectorSn: string;
}

export function useSaveDevice() {
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: DeviceInput }) =>
      id ? api.post<Device>(`/v2/dev/edit/${id}`, input) : api.post<Device>('/v2/dev/add', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['dev'] }),
  });
}

/** Downloads the filtered device list (GET /v2/dev/export). */
export function exportDevices(format: 'csv' | 'xlsx', filters: Omit<DeviceFilters, 'page' | 'pageSize'>) {
  return downloadFile('/v2/dev/export', { format, ...deviceFilterQuery(filters) }, `devices.${format}`);
}
