import {
  ApiError,
  buildHeaders,
  buildUrl,
  fromEnvelope,
  fromTransportStatus,
  isEnvelope,
  type QueryValue,
  readBody,
  REQUEST_TIMEOUT_MS,
} from './api-client';
import { i18n } from './i18n';
import { notifyError } from './notify';

/** The file name a Content-Disposition header names (RFC 6266, filename* first). */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) {
    return fallback;
  }
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/**
 * Downloads a file the server builds (exports). The bearer header rules out a plain link, so the
 * file is fetched, kept as a blob and saved through a temporary object URL. Failures follow the
 * error catalogue like every other call. Resolves with the saved file's name.
 */
export async function downloadFile(
  path: string,
  query: Record<string, QueryValue>,
  fallbackName: string,
): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      headers: buildHeaders(path, false),
      signal: controller.signal,
    });
  } catch {
    const error = new ApiError(0, i18n.t('request.timeout'));
    notifyError(error.msg);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.ok || type.includes('application/json')) {
    const payload = await readBody(response);
    if (isEnvelope(payload)) {
      throw fromEnvelope(payload, path, true);
    }
    throw fromTransportStatus(response.status, true);
  }
  const blob = await response.blob();
  const name = fileNameFrom(response.headers.get('Content-Disposition'), fallbackName);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
