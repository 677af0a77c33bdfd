import { confirmLogout } from './confirm-logout';
import { noteServerReach } from './connection';
import { API_BASE } from './env';
import { currentLocale, i18n } from './i18n';
import { notifyError } from './notify';
import { clearSessionStorage, getToken } from './storage';

/** Request timeout (SPEC.md section 9). */
export const REQUEST_TIMEOUT_MS = 100_000;
export const SUCCESS_CODE = 200;
/** Codes meaning the session was ended elsewhere: password reset, account disabled, other device. */
export const SESSION_ENDED_CODES: readonly number[] = [50008, 50012, 50014];
export const LOGIN_PATH = '/v2/login';
export const USER_INFO_PATH = '/v2/user/info';

/** Every JSON response from the server has this shape. */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/**
 * Why a call failed. code is the envelope code, the HTTP status for a response without an
 * envelope, or 0 when no response arrived (timeout, network failure). msg is ready to show: the
 * server's own translated text or the console's. fields maps each bad input field to its message.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  readonly fields: Record<string, string>;

  constructor(code: number, msg: string, fields: Record<string, string> = {}) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.msg = msg;
    this.fields = fields;
  }
}

export interface SessionHandlers {
  /** After a 401: the session is already forgotten; move the user to the login page. */
  onUnauthorized: () => void;
  /** Re-Login in the "Confirm logout" dialog: sign out and reload. */
  relogin: () => void | Promise<void>;
}

const defaultHandlers: SessionHandlers = {
  onUnauthorized: () => {
    window.location.hash = '#/login';
  },
  relogin: () => {
    clearSessionStorage();
    window.location.reload();
  },
};

let handlers: SessionHandlers = defaultHandlers;

/** The app shell wires navigation and sign-out in here; lib code cannot import the app. */
export function configureSessionHandlers(next: Partial<SessionHandlers>): void {
  handlers = { ...defaultHandlers, ...next };
}

/** A query parameter's value; a list goes comma-separated (the API documents lists so). */
export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false: the caller handles every failure itself; no message, no redirect, no dialog. */
  handleErrors?: boolean;
  timeoutMs?: number;
  /** Headers of the call's own (an Idempotency-Key). */
  headers?: Record<string, string>;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) {
      params.append(key, Array.isArray(value) ? value.join(',') : String(value));
    }
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

export function buildHeaders(path: string, hasBody: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': currentLocale() });
  if (hasBody) {
    headers.set('Content-Type', 'application/json');
  }
  const token = getToken();
  if (token && path !== LOGIN_PATH) {
    headers.set('Authorization', `Bearer ${token}`);
  }
  return headers;
}

export function isEnvelope(body: unknown): body is Envelope<unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('code' in body)) {
    return false;
  }
  const { code } = body as { code: unknown };
  return code !== null && code !== '' && Number.isFinite(Number(code));
}

function fieldsOf(data: unknown): Record<string, string> {
  if (typeof data !== 'object' || data === null || !('fields' in data)) {
    return {};
  }
  const { fields } = data as { fields: unknown };
  if (typeof fields !== 'object' || fields === null) {
    return {};
  }
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function loginExpired(code: number, handle: boolean): ApiError {
  const error = new ApiError(code, i18n.t('request.loginExpired'));
  if (handle) {
    notifyError(error.msg);
    clearSessionStorage();
    handlers.onUnauthorized();
  }
  return error;
}

export function fromEnvelope(envelope: Envelope<unknown>, path: string, handle: boolean): ApiError {
  const code = Number(envelope.code);
  const serverMsg = typeof envelope.msg === 'string' ? envelope.msg : '';
  if (!handle) {
    // The caller explains the failure itself (a failed sign-in is not an expired session).
    return new ApiError(code, serverMsg || i18n.t('request.error'), fieldsOf(envelope.data));
  }
  if (code === 401) {
    return loginExpired(code, true);
  }
  if (code === 403) {
    const error = new ApiError(code, i18n.t('request.forbidden'));
    notifyError(error.msg);
    return error;
  }
  if (SESSION_ENDED_CODES.includes(code) && path !== USER_INFO_PATH) {
    void confirmLogout(() => handlers.relogin());
    return new ApiError(code, serverMsg || i18n.t('request.sessionEnded.content'));
  }
  const error = new ApiError(code, serverMsg || i18n.t('request.error'), fieldsOf(envelope.data));
  notifyError(error.msg);
  return error;
}

/** A response without an envelope and with a failing status: a proxy, a crash, a lost session. */
export function fromTransportStatus(status: number, handle: boolean): ApiError {
  if (status === 401 || status === -1) {
    return loginExpired(status, handle);
  }
  const error = new ApiError(status, i18n.t('request.httpError', { status }));
  if (handle) {
    notifyError(error.msg);
  }
  return error;
}

export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * One call to the Helio API. Resolves with the envelope's data; rejects with an ApiError after
 * applying the error catalogue of SPEC.md section 8 (unless handleErrors is false).
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal, handleErrors = true } = options;
  const headers = buildHeaders(path, body !== undefined);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    headers.set(name, value);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const cancel = () => controller.abort();
  signal?.addEventListener('abort', cancel);

  let status: number;
  let ok: boolean;
  let payload: unknown;
  try {
    const response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    noteServerReach(true);
    status = response.status;
    ok = response.ok;
    payload = await readBody(response);
  } catch (cause) {
    if (signal?.aborted) {
      // The caller gave up (a query was cancelled): nothing to tell the user.
      throw cause;
    }
    noteServerReach(false);
    const error = new ApiError(0, i18n.t('request.timeout'));
    // Offline, the console's own notice says so once (components/connection-notice.tsx).
    if (handleErrors && navigator.onLine !== false) {
      notifyError(error.msg);
    }
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }

  if (isEnvelope(payload)) {
    if (Number(payload.code) === SUCCESS_CODE) {
      return payload.data as T;
    }
    throw fromEnvelope(payload, path, handleErrors);
  }
  if (!ok) {
    throw fromTransportStatus(status, handleErrors);
  }
  // No code: whatever data came back is the answer.
  if (typeof payload === 'object' && payload !== null && 'data' in payload) {
    const { data } = payload as { data: unknown };
    if (data !== undefined && data !== null) {
      return data as T;
    }
  } else if (payload !== undefined && payload !== null) {
    return payload as T;
  }
  const error = new ApiError(status, i18n.t('request.queryTimeout'));
  if (handleErrors) {
    notifyError(error.msg);
  }
  throw error;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
};
