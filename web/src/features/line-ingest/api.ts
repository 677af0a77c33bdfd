import { queryOptions, useMutation } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Types generated from the API description (src/api/schema.d.ts). */
export type LineRules = Schemas['LineRules'];
export type LineRule = Schemas['LineRule'];
/** The body of POST /v2/ingest/line/rules (the whole set; a rule's scale may be left out). */
export type LineRulesInput = Schemas['LineRulesInput'];
export type LineRuleInput = Schemas['LineRuleInput'];
export type UnknownSeries = Schemas['UnknownSeries'];

/** Why a series was not stored. */
export const UNKNOWN_REASONS = ['no_rule', 'no_device_tag', 'unknown_device', 'not_numeric', 'more_series'] as const;

export const rulesQuery = queryOptions({
  queryKey: ['ingest', 'line', 'rules'],
  queryFn: ({ signal }) => typedApi.get('/v2/ingest/line/rules', undefined, { signal }),
});

export const unknownQuery = queryOptions({
  queryKey: ['ingest', 'line', 'unknown'],
  queryFn: ({ signal }) => typedApi.get('/v2/ingest/line/unknown', undefined, { signal }),
  // what arrives keeps arriving: the list follows it while the screen is open
  refetchInterval: 10_000,
});

export function useSaveRules() {
  return useMutation({
    mutationFn: (rules: LineRulesInput) => typedApi.post('/v2/ingest/line/rules', { body: rules }),
    onSuccess: (saved) => queryClient.setQueryData(rulesQuery.queryKey, saved),
  });
}

export function useClearUnknown() {
  return useMutation({
    mutationFn: () => typedApi.post('/v2/ingest/line/unknown/clear'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: unknownQuery.queryKey }),
  });
}

/** The tag most likely to hold a serial number, among a series' tag keys. */
export function guessDeviceTag(tags: string): string {
  const keys = tags.split(',').filter(Boolean);
  return keys.find((k) => /^(sn|serial|serial_?number|device|name)$/i.test(k)) ?? keys[0] ?? 'sn';
}
