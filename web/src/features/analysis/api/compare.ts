import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

export const MODES = ['stations', 'median', 'sameMonth', 'yearToDate'] as const;
export type CompareMode = (typeof MODES)[number] | 'devices';

export const METRICS = [
  'yield',
  'specificYield',
  'equivalentHours',
  'pr',
  'prTemp',
  'availability',
  'co2',
  'revenue',
  'expected',
  'actualVsExpected',
  'selfConsumption',
  'autarky',
] as const;
export type Metric = (typeof METRICS)[number];

/** What a comparison shows (internal/analysis/compare.go). */
export type CompareConfig = Schemas['CompareConfig'];

export type CompareResult = Schemas['CompareResult'];

export function useCompareRun() {
  return useMutation({ mutationFn: (config: CompareConfig) => typedApi.post('/v2/compare/run', { body: config }) });
}

export const compareTemplatesQuery = queryOptions({
  queryKey: ['analysis', 'compare-templates'],
  queryFn: ({ signal }) => typedApi.get('/v2/compare/list', { query: { pageSize: 200 } }, { signal }),
});

export function useCompareTemplates() {
  return useQuery(compareTemplatesQuery);
}

const refresh = () => void queryClient.invalidateQueries({ queryKey: compareTemplatesQuery.queryKey });

export function useSaveCompareTemplate() {
  return useMutation({
    mutationFn: ({ id, ...input }: { id?: number; name: string; shared: boolean; config: CompareConfig }) =>
      id
        ? typedApi.post('/v2/compare/template/edit/{uid}', { path: { uid: id }, body: input })
        : typedApi.post('/v2/compare/template/add', { body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteCompareTemplate() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/compare/template/delete/{uid}', { path: { uid: id } }),
    onSuccess: refresh,
  });
}
