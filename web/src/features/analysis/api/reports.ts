import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import type { Metric, Page, Template } from './compare';
import type { PeriodKind } from './overview';

/** The fields of a report (internal/report/config.go, SPEC.md section 3). */
export interface ReportParams {
  selectionMode: 'all' | 'stations' | 'tag';
  stationIds: number[];
  tagId: number;
  template: 'summary' | 'detail';
  period: PeriodKind;
  date: string;
  from: string;
  to: string;
  language: string;
  format: 'xlsx' | 'csv' | 'pdf';
  fileName: string;
  stationInfo: boolean;
  subsystemInfo: boolean;
  deviceInfo: boolean;
  metrics: Metric[];
}

export interface Schedule {
  frequency: 'none' | 'daily' | 'weekly' | 'monthly';
  hour: number;
  weekday: number;
  monthDay: number;
  timezone: string;
}

export interface ReportTemplateConfig {
  params: ReportParams;
  schedule: Schedule;
}

export interface ReportRecord {
  id: number;
  templateId: number;
  name: string;
  params: ReportParams;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  error: string;
  scheduled: boolean;
  fileName: string;
  fileSize: number;
  createTime: string;
  finishTime: string | null;
}

export interface Parameters {
  selectionModes: ReportParams['selectionMode'][];
  templates: ReportParams['template'][];
  periods: PeriodKind[];
  languages: string[];
  formats: ReportParams['format'][];
  frequencies: Schedule['frequency'][];
  metrics: { key: Metric; unit: string }[];
  stations: { id: number; name: string }[];
  tags: { id: number; name: string }[];
}

export const parametersQuery = queryOptions({
  queryKey: ['analysis', 'report-parameters'],
  queryFn: ({ signal }) => api.get<Parameters>('/v2/report/template/parameter/list', { signal }),
  staleTime: 60_000,
});

export function useParameters() {
  return useQuery(parametersQuery);
}

export const recordsQuery = queryOptions({
  queryKey: ['analysis', 'report-records'],
  queryFn: ({ signal }) => api.get<Page<ReportRecord>>('/v2/report/record/list', { signal, query: { pageSize: 50 } }),
  // while a report renders, its progress is followed
  refetchInterval: (query) =>
    query.state.data?.list.some((r) => r.status === 'queued' || r.status === 'running') ? 1000 : false,
});

export function useRecords() {
  return useQuery(recordsQuery);
}

export const reportTemplatesQuery = queryOptions({
  queryKey: ['analysis', 'report-templates'],
  queryFn: ({ signal }) => api.get<Page<Template<ReportTemplateConfig>>>('/v2/report/template/list', { signal, query: { pageSize: 200 } }),
});

export function useReportTemplates() {
  return useQuery(reportTemplatesQuery);
}

const refreshRecords = () => void queryClient.invalidateQueries({ queryKey: recordsQuery.queryKey });
const refreshTemplates = () => void queryClient.invalidateQueries({ queryKey: reportTemplatesQuery.queryKey });

export function useAddRecord() {
  return useMutation({
    mutationFn: (input: { templateId: number; params: ReportParams }) => api.post<{ id: number }>('/v2/report/record/add', input),
    onSuccess: refreshRecords,
  });
}

export function useSaveReportTemplate() {
  return useMutation({
    mutationFn: ({ id, ...input }: { id?: number; name: string; shared: boolean; config: ReportTemplateConfig }) =>
      api.post<{ id: number }>(id ? `/v2/report/template/edit/${id}` : '/v2/report/template/add', input),
    onSuccess: refreshTemplates,
  });
}

export function useDeleteReportTemplate() {
  return useMutation({
    mutationFn: (id: number) => api.post<{ id: number }>(`/v2/report/template/delete/${id}`),
    onSuccess: refreshTemplates,
  });
}

export function useRunReportTemplate() {
  return useMutation({
    mutationFn: (id: number) => api.post<{ id: number }>(`/v2/report/template/run/${id}`),
    onSuccess: refreshRecords,
  });
}
