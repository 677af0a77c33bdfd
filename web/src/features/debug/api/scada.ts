import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { queryClient } from '@/lib/query-client';

/** A device's Modbus TCP connection (internal/scada/store.go). */
export interface Link {
  deviceId: number;
  host: string;
  port: number;
  unitId: number;
  intervalS: number;
  timeoutMs: number;
  mapId: number;
  mapName: string;
}

export interface PollError {
  time: string;
  message: string;
  kind: 'connect' | 'link' | 'device' | 'decode';
}

export interface ModelHeader {
  id: number;
  addr: number;
  len: number;
}

/** What the poller knows of a device (internal/scada/status.go). */
export interface PollStatus {
  state: 'connecting' | 'online' | 'offline';
  lastPoll: string | null;
  lastSuccess: string | null;
  latencyMs: number;
  polls: number;
  failures: number;
  consecutiveFailures: number;
  errors: PollError[] | null;
  layout: { base: number; models: ModelHeader[] } | null;
  manufacturer: string;
  model: string;
  serial: string;
}

export interface DeviceField {
  id: number;
  name: string;
  sn: string;
  type: string;
  stationId: number;
  stationName: string;
  link: Link | null;
  status: PollStatus | null;
}

export interface LiveRegister {
  name: string;
  model: number;
  group: number;
  address: number;
  function: 'holding' | 'input' | 'coil' | 'discrete';
  dataType: string;
  raw: number[] | null;
  value: number | null;
  /** A string register's text, or the code table's name for the code read. */
  text?: string;
  /** Why the register has no value (a code not in the table, a read the device refused). */
  error?: string;
  unit: string;
  target: string;
  writable: boolean;
}

export interface Live {
  deviceId: number;
  protocol: 'sunspec' | 'map';
  mapId: number;
  mapName: string;
  mapVersion: number;
  readAt: string;
  latencyMs: number;
  registers: LiveRegister[];
}

/** A register map as written (internal/scada/regmap.go; docs/field.md lists every field). */
export interface MapInput {
  id?: number;
  name: string;
  model: string;
  registers: Record<string, unknown>[];
}

export interface MapSummary {
  id: number;
  name: string;
  model: string;
  version: number;
  registers: number;
  devices: number;
  updateTime: string;
}

export interface DeviceOption {
  id: number;
  name: string;
  sn: string;
  stationName: string;
  type: string;
}

export interface LinkInput {
  deviceId: number;
  host: string;
  port: number;
  unitId: number;
  intervalS: number;
  timeoutMs: number;
  mapId: number;
}

/** How often the page reads the device again. */
export const REFRESH_MS = 5_000;

export const deviceOptionsQuery = (name: string) =>
  queryOptions({
    queryKey: ['debug', 'devices', name],
    queryFn: async ({ signal }): Promise<DeviceOption[]> => {
      const page = await api.get<{ list: DeviceOption[] }>('/v2/dev/listbytype', { query: { name, pageSize: 50 }, signal });
      return page.list;
    },
  });

export const deviceFieldQuery = (id: number) =>
  queryOptions({
    queryKey: ['debug', 'field', id],
    queryFn: ({ signal }) => api.post<DeviceField>('/v1/scada/dev/get', { deviceId: id }, { signal }),
    refetchInterval: REFRESH_MS,
  });

export function useDeviceField(id: number | undefined) {
  return useQuery({ ...deviceFieldQuery(id ?? 0), enabled: id !== undefined });
}

/** Live registers, read again every few seconds while auto is on; device errors are shown in place. */
export function useLiveRegisters(id: number | undefined, linked: boolean, auto: boolean) {
  return useQuery({
    queryKey: ['debug', 'registers', id],
    queryFn: ({ signal }) =>
      api.post<Live>('/v1/scada/register/get', { deviceId: id }, { signal, handleErrors: false }),
    enabled: id !== undefined && linked,
    refetchInterval: auto ? REFRESH_MS : false,
    retry: false,
  });
}

export const mapsQuery = queryOptions({
  queryKey: ['debug', 'maps'],
  queryFn: ({ signal }) =>
    api.get<{ list: MapSummary[]; total: number }>('/v1/scada/project/register/config/list', {
      query: { pageSize: 200 },
      signal,
    }),
});

/** The shipped maps (Huawei SUN2000, Sungrow SG, Growatt MAX/MID) to start a map from. */
export const templatesQuery = queryOptions({
  queryKey: ['debug', 'templates'],
  queryFn: ({ signal }) => api.post<MapInput[]>('/v1/scada/template/list', {}, { signal }),
  staleTime: Infinity,
});

/** Reads a map being edited once against a connected device; nothing is saved. */
export function usePreviewMap() {
  return useMutation({
    mutationFn: (input: { deviceId: number; map: unknown }) =>
      api.post<Live>('/v1/scada/register/config/preview', input, { handleErrors: false }),
  });
}

function refresh() {
  void queryClient.invalidateQueries({ queryKey: ['debug'] });
}

export function useSetLink() {
  return useMutation({
    mutationFn: (input: LinkInput) => api.post<DeviceField>('/v1/scada/dev/set', input, { handleErrors: false }),
    onSuccess: refresh,
  });
}

export function useDeleteLink() {
  return useMutation({
    mutationFn: (deviceId: number) => api.post<DeviceField>('/v1/scada/dev/delete', { deviceId }),
    onSuccess: refresh,
  });
}

export function useWriteRegister() {
  return useMutation({
    mutationFn: (input: { deviceId: number; register: string; value: number }) =>
      api.post<Live>('/v1/scada/register/set', { ...input, confirm: true }, { handleErrors: false }),
    onSuccess: (live) => queryClient.setQueryData(['debug', 'registers', live.deviceId], live),
  });
}

export function useImportMap() {
  return useMutation({
    mutationFn: (file: unknown) => api.post<MapSummary>('/v1/scada/register/config/add', file, { handleErrors: false }),
    onSuccess: refresh,
  });
}

export function useDeleteMap() {
  return useMutation({
    mutationFn: (id: number) => api.post<MapSummary>('/v1/scada/config/delete', { id }),
    onSuccess: refresh,
  });
}

export function exportMap(map: MapSummary): Promise<string> {
  return downloadFile(`/v1/scada/config/export/${map.id}`, {}, `${map.name}.v${map.version}.regmap.json`);
}

/** A register's raw words in hexadecimal. */
export function hexWords(raw: number[] | null): string {
  return (raw ?? []).map((w) => `0x${w.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}
