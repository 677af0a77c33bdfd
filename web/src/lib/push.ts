import { useEffect, useRef, useState } from 'react';
import { ApiError, fromEnvelope, SESSION_ENDED_CODES } from './api-client';
import { type Schemas, typedApi } from './api-typed';
import { API_BASE } from './env';
import { currentLocale } from './i18n';
import { getToken, useTokenStore } from './storage';

/**
 * The live message push (docs/alarms.md, "Push protocol"): one WebSocket per tab to
 * /v2/webpush/message, shared by every part of the console that listens, reconnecting with
 * capped exponential backoff and jitter, closed when the session ends.
 */

export const PUSH_PATH = '/v2/webpush/message';
/** The server closes with this code once the session was signed out or revoked. */
export const CLOSE_SESSION_ENDED = 4001;

/** GET /v2/message/counts and the counters the push sends. */
export type MessageCounts = Schemas['Counts'];

/** A message as the server renders it (internal/message/message.go). */
export type PushMessage = Schemas['Message'];

export type PushStatus = 'idle' | 'connecting' | 'open' | 'waiting' | 'stopped';

export type PushEvent =
  /** The first frame of a connection; reconnected: an earlier connection of this session dropped. */
  | { type: 'hello'; userId: number; since: string; reconnected: boolean }
  | { type: 'counts'; counts: MessageCounts }
  | { type: 'message'; message: PushMessage; counts?: MessageCounts }
  /** Samples of the organisation's devices were committed: live figures changed. */
  | { type: 'live'; at: string }
  /** A work order of the organisation was opened, moved or assigned: orders and their alarms changed. */
  | { type: 'orders'; at: string }
  | { type: 'status'; status: PushStatus };

export type PushListener = (event: PushEvent) => void;

/** The part of the browser's WebSocket the client uses (unit tests pass a fake). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}

/**
 * What a failed connection says about the session: alive (try again), ended (stop; the request
 * layer has already told the user) or unknown (the server could not be reached: try again).
 */
export type SessionState = 'alive' | 'ended' | 'unknown';

export interface PushClientOptions {
  url: (token: string) => string;
  createSocket: (url: string) => SocketLike;
  /** Asked after a connection fails before opening, and after a 4001 close. */
  checkSession: () => Promise<SessionState>;
  random?: () => number;
  /** First retry delay; it doubles with every failed attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A connection open at least this long counts as healthy: the next failure starts over. */
  stableMs?: number;
  /** After the last listener leaves, the socket stays this long in case another arrives. */
  idleCloseMs?: number;
}

export const DEFAULT_BACKOFF = { baseDelayMs: 1_000, maxDelayMs: 30_000, stableMs: 10_000 } as const;

/**
 * The wait before reconnect attempt `attempt` (0 for the first retry): the capped exponential
 * delay base·2^attempt ≤ max, of which a random half is kept ("equal jitter"), so tabs that lost
 * the server together do not come back together.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: number): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(cap / 2 + (cap / 2) * Math.min(Math.max(random, 0), 1));
}

/** Reads one text frame; anything else (or a frame of an unknown type) is ignored. */
export function parseFrame(data: unknown, reconnected: boolean): PushEvent | null {
  if (typeof data !== 'string') {
    return null;
  }
  let frame: { type?: unknown; data?: unknown; counts?: unknown };
  try {
    frame = JSON.parse(data) as typeof frame;
  } catch {
    return null;
  }
  if (typeof frame !== 'object' || frame === null) {
    return null;
  }
  const body = (frame.data ?? {}) as Record<string, unknown>;
  switch (frame.type) {
    case 'hello':
      return { type: 'hello', userId: Number(body.userId) || 0, since: String(body.since ?? ''), reconnected };
    case 'counts':
      return { type: 'counts', counts: countsOf(body) };
    case 'message':
      if (typeof body.id !== 'number') {
        return null;
      }
      return {
        type: 'message',
        message: body as unknown as PushMessage,
        counts: frame.counts ? countsOf(frame.counts as Record<string, unknown>) : undefined,
      };
    case 'live':
      return { type: 'live', at: String(body.at ?? '') };
    case 'orders':
      return { type: 'orders', at: String(body.at ?? '') };
    default:
      return null;
  }
}

function countsOf(body: Record<string, unknown>): MessageCounts {
  return { unread: Number(body.unread) || 0, unprocessedAlarm: Number(body.unprocessedAlarm) || 0 };
}

/**
 * One tab's push connection. It connects while it has a token and at least one listener, and
 * goes quiet when either goes away.
 */
export class PushClient {
  private readonly options: Required<PushClientOptions>;
  private readonly listeners = new Set<PushListener>();
  private token: string | null = null;
  private socket: SocketLike | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private openedAt = 0;
  private connectedBefore = false;
  private currentStatus: PushStatus = 'idle';

  constructor(options: PushClientOptions) {
    this.options = {
      random: Math.random,
      idleCloseMs: 1_000,
      ...DEFAULT_BACKOFF,
      ...options,
    };
  }

  get status(): PushStatus {
    return this.currentStatus;
  }

  /** How many reconnect attempts have failed in a row. */
  get failures(): number {
    return this.attempt;
  }

  /** Adds a listener; the first one opens the connection (when there is a token). */
  subscribe(listener: PushListener): () => void {
    this.listeners.add(listener);
    this.clearIdle();
    this.ensure();
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) {
        return;
      }
      this.clearIdle();
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        if (this.listeners.size === 0) {
          this.disconnect('idle');
        }
      }, this.options.idleCloseMs);
    };
  }

  /** A new token reconnects with it; null (signed out) closes the connection for good. */
  setToken(token: string | null): void {
    if (token === this.token) {
      return;
    }
    this.token = token;
    this.disconnect(token ? 'idle' : 'stopped');
    this.connectedBefore = false;
    this.ensure();
  }

  /** Closes the connection and forgets the session (logout). */
  stop(): void {
    this.token = null;
    this.connectedBefore = false;
    this.disconnect('stopped');
  }

  private ensure(): void {
    if (this.token && this.listeners.size > 0 && !this.socket && !this.retryTimer && this.currentStatus !== 'stopped') {
      this.connect();
    }
  }

  private setStatus(status: PushStatus): void {
    if (status !== this.currentStatus) {
      this.currentStatus = status;
      this.emit({ type: 'status', status });
    }
  }

  private emit(event: PushEvent): void {
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }

  private clearIdle(): void {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
  }

  private disconnect(status: PushStatus): void {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      socket.close(1000, 'closing');
    }
    this.attempt = 0;
    this.setStatus(status);
  }

  private connect(): void {
    const token = this.token;
    if (!token) {
      return;
    }
    this.setStatus('connecting');
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url(token));
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    let opened = false;
    let helloSeen = false;
    socket.onopen = () => {
      opened = true;
      this.openedAt = Date.now();
      this.setStatus('open');
    };
    socket.onmessage = (message) => {
      const event = parseFrame(message.data, this.connectedBefore);
      if (!event) {
        return;
      }
      if (event.type === 'hello') {
        if (helloSeen) {
          return;
        }
        helloSeen = true;
        this.connectedBefore = true;
      }
      this.emit(event);
    };
    socket.onerror = () => {
      // A close event always follows; the decision is taken there.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) {
        return;
      }
      this.socket = null;
      if (opened && Date.now() - this.openedAt >= this.options.stableMs) {
        this.attempt = 0;
      }
      if (event.code === CLOSE_SESSION_ENDED) {
        // Signed out or revoked elsewhere: never again with this token. The session check lets
        // the request layer say so (login expired, or the "Confirm logout" dialog).
        this.setStatus('stopped');
        void this.options.checkSession();
        return;
      }
      if (opened) {
        this.retry();
        return;
      }
      // The upgrade was refused or the server is unreachable; a browser cannot read the status
      // of a refused upgrade, so an ordinary call tells a lost session from a lost network.
      this.setStatus('waiting');
      void this.options.checkSession().then((state) => {
        if (this.token !== token || this.socket || this.retryTimer || this.currentStatus !== 'waiting') {
          return;
        }
        if (state === 'ended') {
          this.setStatus('stopped');
        } else {
          this.retry();
        }
      });
    };
  }

  private retry(): void {
    const delay = backoffDelay(this.attempt, this.options.baseDelayMs, this.options.maxDelayMs, this.options.random());
    this.attempt += 1;
    this.setStatus('waiting');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.token && this.listeners.size > 0) {
        this.connect();
      } else {
        this.setStatus('idle');
      }
    }, delay);
  }
}

/** ws: or wss: as the page's own scheme, on the API's origin (the console's unless VITE_API_BASE names another). */
export function pushUrl(token: string, base = API_BASE, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const query = new URLSearchParams({ token, lang: currentLocale() }).toString();
  if (/^https?:\/\//i.test(base)) {
    return `${base.replace(/^http/i, 'ws').replace(/\/$/, '')}${PUSH_PATH}?${query}`;
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${base.replace(/\/$/, '')}${PUSH_PATH}?${query}`;
}

const COUNTS_PATH = '/v2/message/counts';

/**
 * Asks the server whether the session still holds. 401 and the session-ended codes go through
 * the request layer's rules (login expired; "Confirm logout"); other failures are not the
 * session's fault and are not shown, the push simply tries again later.
 */
export async function checkSession(): Promise<SessionState> {
  try {
    await typedApi.get('/v2/message/counts', undefined, { handleErrors: false });
    return 'alive';
  } catch (error) {
    if (error instanceof ApiError && (error.code === 401 || SESSION_ENDED_CODES.includes(error.code))) {
      fromEnvelope({ code: error.code, msg: error.msg, data: null }, COUNTS_PATH, true);
      return 'ended';
    }
    return 'unknown';
  }
}

let shared: PushClient | null = null;

/** The tab's one push client, following the stored token (sign-in, logout, 401). */
export function pushClient(): PushClient {
  if (!shared) {
    const client = new PushClient({
      url: (token) => pushUrl(token),
      // The browser's WebSocket has this shape; its handler types are merely narrower.
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      checkSession,
    });
    client.setToken(getToken());
    useTokenStore.subscribe((state) => client.setToken(state.token));
    shared = client;
  }
  return shared;
}

/** Listens to the push while the component is mounted; the connection opens with the first listener. */
export function usePush(listener: PushListener): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => pushClient().subscribe((event) => latest.current(event)), []);
}

/** The connection's state, for a "live" indicator. */
export function usePushStatus(): PushStatus {
  const [status, setStatus] = useState<PushStatus>(() => pushClient().status);
  usePush((event) => {
    if (event.type === 'status') {
      setStatus(event.status);
    }
  });
  return status;
}
