import { queryOptions, useMutation } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { ApiError, buildUrl, fromEnvelope, fromTransportStatus, isEnvelope, SUCCESS_CODE } from '@/lib/api-client';
import { typedApi } from '@/lib/api-typed';
import { currentLocale, i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import type { SampleField } from '@/lib/sample-fields';
import { getToken } from '@/lib/storage';

/** Types generated from the API description (src/api/schema.d.ts). */
export type ImportFile = components['schemas']['File'];
export type Preview = components['schemas']['Preview'];
export type Mapping = components['schemas']['Mapping'];
export type MappingColumn = components['schemas']['Column'];
export type Template = components['schemas']['Template'];
export type TemplateSave = components['schemas']['TemplateSave'];
export type Job = components['schemas']['Job'];
export type JobFile = components['schemas']['JobFile'];
export type JobRequest = components['schemas']['JobRequest'];
export type Report = components['schemas']['Report'];

/**
 * The importer's field names and the shared sample field whose label (sampleField.<name>) names
 * each; the importer takes no stringsActive.
 */
export const IMPORT_FIELDS: Record<string, SampleField> = {
  power: 'powerKw',
  energy: 'energyKwh',
  energy2: 'energy2Kwh',
  dcVoltage: 'dcVoltageV',
  dcCurrent: 'dcCurrentA',
  acVoltage: 'acVoltageV',
  frequency: 'frequencyHz',
  temperature: 'tempC',
  soc: 'soc',
  irradiance: 'irradianceWm2',
  status: 'status',
};

/** The units a column of each field may carry ("" for fields read as they are). */
export function unitsOf(field: string | undefined): string[] {
  if (field === 'power') return ['W', 'kW', 'MW'];
  if (field === 'energy' || field === 'energy2') return ['Wh', 'kWh', 'MWh'];
  return [];
}

export const isEnergy = (field: string | undefined) => field === 'energy' || field === 'energy2';

/** Why rows are rejected, as the report names them; each has a text historyImport.reason.<key>. */
export const REJECT_REASONS = [
  'unparseable_time',
  'unknown_device',
  'missing_device',
  'not_a_number',
  'missing_columns',
  'missing_time',
  'not_finite',
  'negative_counter',
  'power_out_of_range',
  'value_out_of_range',
  'future_time',
  'too_old',
  'out_of_order',
] as const;

/** A job still moving: its status is polled. */
export const isActive = (job: Job | undefined) => job?.state === 'queued' || job?.state === 'running';

export const POLL_MS = 2000;

export const filesQuery = queryOptions({
  queryKey: ['import', 'files'],
  queryFn: ({ signal }) => typedApi.get('/v2/import/file/list', undefined, { signal }),
});

export const templatesQuery = queryOptions({
  queryKey: ['import', 'templates'],
  queryFn: ({ signal }) => typedApi.get('/v2/import/template/list', undefined, { signal }),
});

export const jobsQuery = queryOptions({
  queryKey: ['import', 'jobs'],
  queryFn: ({ signal }) => typedApi.get('/v2/import/job/list', undefined, { signal }),
});

/** One job, polled every 2 s while it is queued or running. */
export const jobQuery = (id: number) =>
  queryOptions({
    queryKey: ['import', 'job', id],
    queryFn: ({ signal }) => typedApi.get('/v2/import/job/{id}', { path: { id } }, { signal }),
    refetchInterval: (query) => (query.state.data === undefined || isActive(query.state.data) ? POLL_MS : false),
  });

export const previewQuery = (fileId: number) =>
  queryOptions({
    queryKey: ['import', 'preview', fileId],
    queryFn: () => typedApi.post('/v2/import/preview', { body: { fileId } }),
    staleTime: Infinity,
  });

export function useDeleteFile() {
  return useMutation({
    mutationFn: (fileId: number) => typedApi.post('/v2/import/file/delete', { body: { fileId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesQuery.queryKey }),
  });
}

export function useSaveTemplate() {
  return useMutation({
    mutationFn: (body: TemplateSave) => typedApi.post('/v2/import/template/save', { body: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQuery.queryKey }),
  });
}

export function useDeleteTemplate() {
  return useMutation({
    mutationFn: (templateId: number) => typedApi.post('/v2/import/template/delete', { body: { templateId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesQuery.queryKey }),
  });
}

/** Starts a dry run (dry) or an import; the job list learns of it. */
export function useStartJob(dry: boolean) {
  return useMutation({
    mutationFn: (body: JobRequest) => typedApi.post(dry ? '/v2/import/dryrun' : '/v2/import/job/start', { body }),
    onSuccess: (job) => {
      if (job.id !== undefined) queryClient.setQueryData(jobQuery(job.id).queryKey, job);
      return queryClient.invalidateQueries({ queryKey: jobsQuery.queryKey });
    },
  });
}

export type JobAction = 'pause' | 'resume' | 'cancel';

export function useJobAction() {
  return useMutation({
    mutationFn: ({ jobId, action }: { jobId: number; action: JobAction }) => typedApi.post(`/v2/import/job/${action}`, { body: { jobId } }),
    onSuccess: (job) => {
      if (job.id !== undefined) queryClient.setQueryData(jobQuery(job.id).queryKey, job);
      return queryClient.invalidateQueries({ queryKey: jobsQuery.queryKey });
    },
  });
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The content type the server takes for a file of this name. */
export function uploadType(name: string): string {
  return name.toLowerCase().endsWith('.xlsx') ? XLSX_TYPE : 'text/csv';
}

/**
 * Uploads one file as the request body (XMLHttpRequest, for its upload progress: 0 to 1), with
 * the session's token; resolves with the stored file, rejects with an ApiError as api calls do.
 */
export function uploadFile(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ImportFile> {
  const path = '/v2/import/file/upload';
  return new Promise<ImportFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path, { name: file.name }));
    xhr.setRequestHeader('Content-Type', uploadType(file.name));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLocale());
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText) as unknown;
      } catch {
        payload = undefined;
      }
      if (isEnvelope(payload)) {
        if (Number(payload.code) === SUCCESS_CODE) {
          onProgress(1);
          resolve(payload.data as ImportFile);
        } else {
          reject(fromEnvelope(payload, path, true));
        }
        return;
      }
      reject(fromTransportStatus(xhr.status, true));
    };
    xhr.onerror = () => reject(new ApiError(0, i18n.t('request.timeout')));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
