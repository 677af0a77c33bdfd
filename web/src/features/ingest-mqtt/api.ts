import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Types generated from the API description (src/api/schema.d.ts). */
export type MapRule = Schemas['MapRule'];
export type MapRuleInput = Schemas['MapRuleInput'];
export type MapRuleList = Schemas['MapRuleList'];
export type FieldMap = Schemas['FieldMap'];
export type MapPreset = Schemas['MapPreset'];
export type MapPresetApplied = Schemas['MapPresetApplied'];
export type ArrivedList = Schemas['ArrivedList'];
export type ArrivedTopic = Schemas['ArrivedTopic'];
export type MapPresetApply = Schemas['MapPresetApply'];

/** The sample fields a rule may fill (the server checks the same list). */
export { SAMPLE_FIELDS } from '@/lib/sample-fields';

export const rulesQuery = queryOptions({
  queryKey: ['ingest', 'mqtt', 'rules'],
  queryFn: ({ signal }) => typedApi.get('/v2/ingest/mqtt/rule/list', undefined, { signal }),
});

export const presetsQuery = queryOptions({
  queryKey: ['ingest', 'mqtt', 'presets'],
  queryFn: ({ signal }) => typedApi.get('/v2/ingest/mqtt/preset/list', undefined, { signal }),
  staleTime: Infinity,
});

/** What arrived and gave no sample: polled, since it changes as collectors publish. */
export const arrivedQuery = queryOptions({
  queryKey: ['ingest', 'mqtt', 'arrived'],
  queryFn: ({ signal }) => typedApi.get('/v2/ingest/mqtt/arrived', undefined, { signal }),
  refetchInterval: 5000,
});

const refresh = () => queryClient.invalidateQueries({ queryKey: rulesQuery.queryKey });

/** Adds a rule (id 0) or replaces one. */
export function useSaveRule() {
  return useMutation({
    mutationFn: ({ id, rule }: { id: number; rule: MapRuleInput }) =>
      id > 0 ? typedApi.post('/v2/ingest/mqtt/rule/edit/{id}', { path: { id }, body: rule }) : typedApi.post('/v2/ingest/mqtt/rule/add', { body: rule }),
    onSuccess: refresh,
  });
}

export function useDeleteRule() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/ingest/mqtt/rule/delete/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}

export function useApplyPreset() {
  return useMutation({
    mutationFn: (req: MapPresetApply) => typedApi.post('/v2/ingest/mqtt/preset/apply', { body: req }),
    onSuccess: refresh,
  });
}

export const useRules = () => useQuery(rulesQuery);
export const usePresets = () => useQuery(presetsQuery);
export const useArrived = () => useQuery(arrivedQuery);
