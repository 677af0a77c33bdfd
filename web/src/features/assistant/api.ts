import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  ApiError,
  buildHeaders,
  buildUrl,
  fromEnvelope,
  fromTransportStatus,
  isEnvelope,
  SUCCESS_CODE,
} from '@/lib/api-client';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

export const DOCUMENTS_PATH = '/api/vectorstore/documents';
/** The largest file the store takes (internal/assistant.MaxDocBytes). */
export const MAX_DOC_BYTES = 10 * 1024 * 1024;
export const DOC_EXTENSIONS = ['.pdf', '.md', '.markdown', '.txt', '.html', '.htm'] as const;

/** The statuses a document goes through (the API describes `status` as a string of these). */
export type DocStatus = 'queued' | 'indexing' | 'ready' | 'failed';

/** A document of the store (internal/assistant), generated from the API description. */
export type DocumentItem = Schemas['Document'];

/** GET /api/vectorstore/documents/stats. */
export type DocStats = Schemas['Stats'];

/** GET /api/vectorstore/documents/{id}: a document and its passages. */
export type DocDetail = Schemas['DocDetail'];

export interface DocListParams {
  name: string;
  page: number;
  pageSize: number;
}

const pending = (list?: Schemas['DocList']) => list?.list.some((d) => d.status === 'queued' || d.status === 'indexing');

export function useDocuments(params: DocListParams) {
  return useQuery({
    queryKey: ['assistant', 'documents', params],
    queryFn: ({ signal }) => typedApi.get('/api/vectorstore/documents', { query: { ...params } }, { signal }),
    placeholderData: keepPreviousData,
    // indexing runs in the background: follow its progress while any document waits
    refetchInterval: (query) => (pending(query.state.data) ? 1000 : false),
  });
}

export function useDocStats() {
  return useQuery({
    queryKey: ['assistant', 'stats'],
    queryFn: ({ signal }) => typedApi.get('/api/vectorstore/documents/stats', undefined, { signal }),
    refetchInterval: (query) => (query.state.data && query.state.data.pending > 0 ? 1000 : false),
  });
}

export const docDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['assistant', 'document', id],
    queryFn: ({ signal }) => typedApi.get('/api/vectorstore/documents/{id}', { path: { id } }, { signal }),
  });

export function useDocDetail(id: number | undefined) {
  return useQuery({ ...docDetailQuery(id ?? 0), enabled: id !== undefined });
}

function refreshDocuments() {
  void queryClient.invalidateQueries({ queryKey: ['assistant'] });
}

export function useDeleteDocument() {
  return useMutation({
    mutationFn: (id: number) => typedApi.delete('/api/vectorstore/documents', { query: { id } }),
    onSuccess: refreshDocuments,
  });
}

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.readAsDataURL(file);
  });
}

/**
 * Uploads a file, reporting the share sent (0–1) as it goes. Rejects with an ApiError after
 * the usual error handling (the server names what is wrong with the file).
 */
export async function uploadDocument(file: File, onProgress: (share: number) => void): Promise<DocumentItem> {
  const content = await base64Of(file);
  const upload: Schemas['UploadBody'] = { name: file.name, content };
  const body = JSON.stringify(upload);
  const data = await new Promise<DocumentItem>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(DOCUMENTS_PATH));
    buildHeaders(DOCUMENTS_PATH, true).forEach((value, key) => xhr.setRequestHeader(key, value));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) {
        onProgress(event.loaded / event.total);
      }
    };
    xhr.onerror = () => reject(fromTransportStatus(0, true));
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText) as unknown;
      } catch {
        payload = undefined;
      }
      if (isEnvelope(payload)) {
        if (Number(payload.code) === SUCCESS_CODE) {
          resolve(payload.data as DocumentItem);
        } else {
          reject(fromEnvelope(payload, DOCUMENTS_PATH, true));
        }
        return;
      }
      reject(fromTransportStatus(xhr.status, true));
    };
    xhr.send(body);
  });
  refreshDocuments();
  return data;
}

/** Checks a file before sending it: its kind by extension and its size. */
export function fileProblem(file: File): 'type' | 'size' | null {
  const name = file.name.toLowerCase();
  if (!DOC_EXTENSIONS.some((ext) => name.endsWith(ext))) {
    return 'type';
  }
  return file.size > MAX_DOC_BYTES ? 'size' : null;
}

export { ApiError };
