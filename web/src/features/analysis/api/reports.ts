import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** The fields of a report (internal/report/config.go, SPEC.md section 3). */
export type ReportParams = Schemas['Params'];

export type Schedule = Schemas['Schedule'];

export type ReportTemplateConfig = Schemas['TemplateConfig'];

export type ReportRecord = Schemas['Record'];

export type Parameters = Schemas['Parameters'];

export const parametersQuery = queryOptions({
  queryKey: ['analysis', 'report-parameters'],
  queryFn: ({ signal }) => typedApi.get('/v2/report/template/parameter/list', undefined, { signal }),
  staleTime: 60_000,
});

export function useParameters() {
  return useQuery(parametersQuery);
}

export const recordsQuery = queryOptions({
  queryKey: ['analysis', 'report-records'],
  queryFn: ({ signal }) => typedApi.get('/v2/report/record/list', { query: { pageSize: 50 } }, { signal }),
  // while a report renders, its progress is followed
  refetchInterval: (query) =>
    query.state.data?.list.some((r) => r.status === 'queued' || r.status === 'running') ? 1000 : false,
});

export function useRecords() {
  return useQuery(recordsQuery);
}

export const reportTemplatesQuery = queryOptions({
  queryKey: ['analysis', 'report-templates'],
  queryFn: ({ signal }) => typedApi.get('/v2/report/template/list', { query: { pageSize: 200 } }, { signal }),
});

export function useReportTemplates() {
  return useQuery(reportTemplatesQuery);
}

const refreshRecords = () => void queryClient.invalidateQueries({ queryKey: recordsQuery.queryKey });
const refreshTemplates = () => void queryClient.invalidateQueries({ queryKey: reportTemplatesQuery.queryKey });

export function useAddRecord() {
  return useMutation({
    mutationFn: (input: { templateId: number; params: ReportParams }) => typedApi.post('/v2/report/record/add', { body: input }),
    onSuccess: refreshRecords,
  });
}

export function useSaveReportTemplate() {
  return useMutation({
    mutationFn: ({ id, ...input }: { id?: number; name: string; shared: boolean; config: ReportTemplateConfig }) =>
      id
        ? typedApi.post('/v2/report/template/edit/{uid}', { path: { uid: id }, body: input })
        : typedApi.post('/v2/report/template/add', { body: input }),
    onSuccess: refreshTemplates,
  });
}

export function useDeleteReportTemplate() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/report/template/delete/{uid}', { path: { uid: id } }),
    onSuccess: refreshTemplates,
  });
}

export function useRunReportTemplate() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/report/template/run/{uid}', { path: { uid: id } }),
    onSuccess: refreshRecords,
  });
}
