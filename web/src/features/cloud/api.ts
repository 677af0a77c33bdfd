import { queryOptions, useMutation } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Types generated from the API description (src/api/schema.d.ts). */
export type Connection = components['schemas']['Connection'];
export type ConnectionInput = components['schemas']['ConnectionInput'];
export type FoundSite = components['schemas']['FoundSite'];
export type FoundDevice = components['schemas']['FoundDevice'];
export type Pick = components['schemas']['Pick'];
export type Confirmed = components['schemas']['Confirmed'];

export type VendorInfo = components['schemas']['VendorInfo'];
export type CredentialField = components['schemas']['Field'];

/** The vendors a connection may name, with the credentials each needs (docs/ingest.md, "Vendor clouds"). */
export const vendorsQuery = queryOptions({
  queryKey: ['cloud', 'vendors'],
  queryFn: ({ signal }) => typedApi.get('/v2/cloud/vendors', undefined, { signal }),
  staleTime: Infinity,
});

/** A vendor's brand name (the same in every language); its key while the list loads. */
export function vendorLabel(vendors: VendorInfo[] | undefined, name: string): string {
  return vendors?.find((v) => v.name === name)?.label || name;
}

/**
 * The credentials as the API takes them from the form's values of the vendor's fields: one
 * field is sent as typed; several as a JSON object of them. Nothing typed (an edit that keeps
 * the stored credentials) is the empty string.
 */
export function credentialsOf(fields: CredentialField[], values: Record<string, string | undefined>): string {
  const typed = fields.map((f) => [f.key ?? '', (values[f.key ?? ''] ?? '').trim()] as const);
  if (typed.every(([, v]) => v === '')) return '';
  if (typed.length === 1) return typed[0]?.[1] ?? '';
  return JSON.stringify(Object.fromEntries(typed.filter(([, v]) => v !== '')));
}

/** A connection's states, in the order an administrator meets them. */
export const STATES = ['new', 'backfill', 'live', 'quota', 'retrying', 'refused'] as const;

const STATE_COLORS: Record<string, string> = {
  new: 'gray',
  backfill: 'arcoblue',
  live: 'green',
  quota: 'orange',
  retrying: 'orangered',
  refused: 'red',
};

/** The tag colour of a state; gray for one the console does not know. */
export function stateColor(state: string | undefined): string {
  return STATE_COLORS[state ?? ''] ?? 'gray';
}

/** Today's calls of the budget, e.g. "42 / 300". */
export function quotaText(c: Connection): string {
  return `${c.quotaUsed ?? 0} / ${c.dailyBudget ?? 0}`;
}

/** A site's chosen devices, every field present. */
export interface Choice extends Pick {
  siteId: string;
  stationId: number;
  serials: string[];
}

/** Every serial number of the discovered sites Helio does not sync yet, by site. */
export function defaultPicks(sites: FoundSite[]): Choice[] {
  return sites
    .map((s) => ({
      siteId: s.id ?? '',
      stationId: s.stationId ?? 0,
      serials: (s.devices ?? []).filter((d) => !d.following).map((d) => d.serial ?? ''),
    }))
    .filter((p) => p.serials.length > 0);
}

export const connectionsQuery = queryOptions({
  queryKey: ['cloud', 'connections'],
  queryFn: ({ signal }) => typedApi.get('/v2/cloud/connections', undefined, { signal }),
  // the worker moves states and quota on its own: follow it while the screen is open
  refetchInterval: 15_000,
});

const refresh = () => queryClient.invalidateQueries({ queryKey: connectionsQuery.queryKey });

export function useAddConnection() {
  return useMutation({
    mutationFn: (c: ConnectionInput) => typedApi.post('/v2/cloud/connection/add', { body: c }),
    onSuccess: refresh,
  });
}

export function useEditConnection() {
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: ConnectionInput }) => typedApi.post('/v2/cloud/connection/edit/{id}', { path: { id }, body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteConnection() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/cloud/connection/delete/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}

export function useSyncNow() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/cloud/connection/sync/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}

export function useDiscover() {
  return useMutation({
    mutationFn: (id: number) => typedApi.get('/v2/cloud/connection/discover/{id}', { path: { id } }),
    onSuccess: refresh, // discovery spends calls
  });
}

export function useConfirm() {
  return useMutation({
    mutationFn: ({ id, sites }: { id: number; sites: Pick[] }) => typedApi.post('/v2/cloud/connection/confirm/{id}', { path: { id }, body: { sites } }),
    onSuccess: refresh,
  });
}
