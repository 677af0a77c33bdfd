import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Types generated from the API description (src/api/schema.d.ts). */
export type KeyInfo = Schemas['KeyInfo'];
export type IssuedKey = Schemas['IssuedKey'];
export type KeyRequest = Schemas['KeyRequest'];

export const KEY_KINDS = ['device', 'collector'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

export const keysQuery = queryOptions({
  queryKey: ['ingest', 'keys'],
  queryFn: ({ signal }) => typedApi.get('/v2/ingest/key/list', undefined, { signal }),
});

export function useKeys() {
  return useQuery(keysQuery);
}

const refresh = () => queryClient.invalidateQueries({ queryKey: keysQuery.queryKey });

/** Issues a key, or rotates it when the device or collector has one. */
export function useIssueKey() {
  return useMutation({
    mutationFn: (req: KeyRequest) => typedApi.post('/v2/ingest/key/issue', { body: req }),
    onSuccess: refresh,
  });
}

export function useRevokeKey() {
  return useMutation({
    mutationFn: (req: KeyRequest) => typedApi.post('/v2/ingest/key/revoke', { body: req }),
    onSuccess: refresh,
  });
}

/** The request naming a listed key. */
export function requestOf(key: KeyInfo): KeyRequest {
  return key.kind === 'device' ? { kind: 'device', deviceId: key.deviceId } : { kind: 'collector', collectorSn: key.target };
}

/** Devices matching a name or serial number, for the device picker. */
export function useDeviceSearch(name: string) {
  return useQuery({
    queryKey: ['ingest', 'device-search', name],
    queryFn: ({ signal }) =>
      typedApi.get('/v2/dev/listbytype', { query: { name, pageSize: 20 } }, { signal }),
  });
}
