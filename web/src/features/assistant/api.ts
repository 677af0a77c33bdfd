import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { Page } from '@/components/list/list-table';
import {
  ApiError,
  api,
  buildHeaders,
  buildUrl,
  fromEnvelope,
  fromTransportStatus,
  isEnvelope,
  request,
  SUCCESS_CODE,
} from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';

export const DOCUMENTS_PATH = '/api/vectorstore/documents';
/** The largest file the store takes (internal/assistant.MaxDocBytes). */
export const MAX_DOC_BYTES = 10 * 1024 * 1024;
export const DOC_EXTENSIONS = ['.pdf', '.md', '.markdown', '.txt', '.html', '.htm'] as const;

export type DocStatus = 'queued' | 'indexing' | 'ready' | 'failed';

export interface DocumentItem {
  id: number;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  status: DocStatus;
  progress: number;
  chunks: number;
  chars: number;
  error?: string;
  createdAt: string;
  indexedAt?: string;
}

export interface DocStats {
  documents: number;
  ready: number;
  pending: number;
  failed: number;
  chunks: number;
  bytes: number;
  indexBytes: number;
  lastIndexed?: string;
  embeddings: boolean;
}

export interface DocDetail {
  document: DocumentItem;
  passages: { seq: number; heading: string; body: string }[];
}

export interface DocListParams {
  name: string;
  page: number;
  pageSize: number;
}

const pending = (list?: Page<DocumentItem>) => list?.list.some((d) => d.status === 'queued' || d.status === 'indexing');

export function useDocuments(params: DocListParams) {
  return useQuery({
    queryKey: ['assistant', 'documents', params],
    queryFn: ({ signal }) => api.get<Page<DocumentItem>>(DOCUMENTS_PATH, { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
    // indexing runs in the background: follow its progress while any document waits
    refetchInterval: (query) => (pending(query.state.data) ? 1000 : false),
  });
}

export function useDocStats() {
  return useQuery({
    queryKey: ['assistant', 'stats'],
    queryFn: ({ signal }) => api.get<DocStats>(`${DOCUMENTS_PATH}/stats`, { signal }),
    refetchInterval: (query) => (query.state.data && query.state.data.pending > 0 ? 1000 : false),
  });
}

export const docDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['assistant', 'document', id],
    queryFn: ({ signal }) => api.get<DocDetail>(`${DOCUMENTS_PATH}/${id}`, { signal }),
  });

export function useDocDetail(id: number | undefined) {
  return useQuery({ ...docDetailQuery(id ?? 0), enabled: id !== undefined });
}

function refreshDocuments() {
  void queryClient.invalidateQueries({ queryKey: ['assistant'] });
}

export function useDeleteDocument() {
  return useMutation({
    mutationFn: (id: number) => request<DocumentItem>(DOCUMENTS_PATH, { method: 'DELETE', query: { id } }),
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
  const body = JSON.stringify({ name: file.name, content });
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
