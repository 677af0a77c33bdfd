import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { downloadFile } from '@/lib/download';
import { queryClient } from '@/lib/query-client';

/** A device's Modbus TCP connection (internal/scada/store.go). */
export type Link = Schemas['Link'];

export type PollError = Schemas['PollError'];

/** A SunSpec model of a device's layout: its id, the address of its ID register and its length. */
export type ModelHeader = Schemas['Header'];

/** What the poller knows of a device (internal/scada/status.go). */
export type PollStatus = Schemas['Status'];

export type DeviceField = Schemas['DeviceField'];

export type LiveRegister = Schemas['LiveRegister'];

export type Live = Schemas['Live'];

/**
 * A register map as the server answers it (a shipped template; internal/scada/regmap.go,
 * docs/field.md lists every field). The body that adds one is Schemas['MapInputInput'].
 */
export type MapInput = Schemas['MapInput'];

export type MapSummary = Schemas['MapSummary'];

export type DeviceOption = Schemas['Item'];

export type LinkInput = Schemas['LinkInput'];

/** How often the page reads the device again. */
export const REFRESH_MS = 5_000;

export const deviceOptionsQuery = (name: string) =>
  queryOptions({
    queryKey: ['debug', 'devices', name],
    queryFn: async ({ signal }): Promise<DeviceOption[]> => {
      const page = await typedApi.get('/v2/dev/listbytype', { query: { name, pageSize: 50 } }, { signal });
      return page.list;
    },
  });

export const deviceFieldQuery = (id: number) =>
  queryOptions({
    queryKey: ['debug', 'field', id],
    queryFn: ({ signal }) => typedApi.post('/v1/scada/dev/get', { body: { deviceId: id } }, { signal }),
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
      typedApi.post('/v1/scada/register/get', { body: { deviceId: id ?? 0 } }, { signal, handleErrors: false }),
    enabled: id !== undefined && linked,
    refetchInterval: auto ? REFRESH_MS : false,
    retry: false,
  });
}

export const mapsQuery = queryOptions({
  queryKey: ['debug', 'maps'],
  queryFn: ({ signal }) =>
    typedApi.get('/v1/scada/project/register/config/list', { query: { pageSize: 200 } }, { signal }),
});

/** The shipped maps (Huawei SUN2000, Sungrow SG, Growatt MAX/MID) to start a map from. */
export const templatesQuery = queryOptions({
  queryKey: ['debug', 'templates'],
  queryFn: ({ signal }) => typedApi.post('/v1/scada/template/list', { body: {} }, { signal }),
  staleTime: Infinity,
});

/** Reads a map being edited once against a connected device; nothing is saved. */
export function usePreviewMap() {
  return useMutation({
    // the map as edited: the server checks every field and names what is wrong
    mutationFn: (input: { deviceId: number; map: unknown }) =>
      typedApi.post('/v1/scada/register/config/preview', { body: input as Schemas['PreviewInput'] }, { handleErrors: false }),
  });
}

function refresh() {
  void queryClient.invalidateQueries({ queryKey: ['debug'] });
}

export function useSetLink() {
  return useMutation({
    mutationFn: (input: LinkInput) => typedApi.post('/v1/scada/dev/set', { body: input }, { handleErrors: false }),
    onSuccess: refresh,
  });
}

export function useDeleteLink() {
  return useMutation({
    mutationFn: (deviceId: number) => typedApi.post('/v1/scada/dev/delete', { body: { deviceId } }),
    onSuccess: refresh,
  });
}

export function useWriteRegister() {
  return useMutation({
    mutationFn: (input: Omit<Schemas['WriteInput'], 'confirm'>) =>
      typedApi.post('/v1/scada/register/set', { body: { ...input, confirm: true } }, { handleErrors: false }),
    onSuccess: (live) => queryClient.setQueryData(['debug', 'registers', live.deviceId], live),
  });
}

export function useImportMap() {
  return useMutation({
    mutationFn: (file: unknown) => // an imported file: the server checks every field and names what is wrong
      typedApi.post('/v1/scada/register/config/add', { body: file as Schemas['MapInputInput'] }, { handleErrors: false }),
    onSuccess: refresh,
  });
}

export function useDeleteMap() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v1/scada/config/delete', { body: { id } }),
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
