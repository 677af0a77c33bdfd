import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import type { PeriodKind } from './overview';

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
export interface CompareConfig {
  mode: CompareMode;
  metric: Metric;
  stationIds: number[];
  deviceIds: number[];
  period: PeriodKind | '';
  date: string;
  from: string;
  to: string;
  month: number;
  years: number[];
}

export interface CompareResult {
  metric: Metric;
  unit: string;
  labels: string[];
  series: { name: string; values: (number | null)[]; total: number | null }[];
}

export interface Template<C> {
  id: number;
  name: string;
  shared: boolean;
  mine: boolean;
  owner: string;
  config: C;
  updateTime: string;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export function useCompareRun() {
  return useMutation({ mutationFn: (config: CompareConfig) => api.post<CompareResult>('/v2/compare/run', config) });
}

export const compareTemplatesQuery = queryOptions({
  queryKey: ['analysis', 'compare-templates'],
  queryFn: ({ signal }) => api.get<Page<Template<CompareConfig>>>('/v2/compare/list', { signal, query: { pageSize: 200 } }),
});

export function useCompareTemplates() {
  return useQuery(compareTemplatesQuery);
}

const refresh = () => void queryClient.invalidateQueries({ queryKey: compareTemplatesQuery.queryKey });

export function useSaveCompareTemplate() {
  return useMutation({
    mutationFn: ({ id, ...input }: { id?: number; name: string; shared: boolean; config: CompareConfig }) =>
      api.post<{ id: number }>(id ? `/v2/compare/template/edit/${id}` : '/v2/compare/template/add', input),
    onSuccess: refresh,
  });
}

export function useDeleteCompareTemplate() {
  return useMutation({
    mutationFn: (id: number) => api.post<{ id: number }>(`/v2/compare/template/delete/${id}`),
    onSuccess: refresh,
  });
}
