/**
 * Work-order actions that wait for the network. A crew member on site with poor coverage
 * accepts, starts, checks in, answers the checklist, comments, attaches photos and finishes;
 * each action carries an Idempotency-Key made once, when the action is taken. Offline (or when
 * the call cannot reach the server) the action is kept here, in the order taken, and sent when
 * the network returns: the server answers a key it has seen as the first time, so an action
 * sent twice happens once. An action the server refuses (someone else moved the order
 * meanwhile) is kept with the server's words until the user dismisses it: never silently lost.
 */
import { useSyncExternalStore } from 'react';
import { ApiError, request } from '@/lib/api-client';
import { fillPath } from '@/lib/api-typed';
import { keptProfile } from '@/lib/auth';
import { STORAGE_KEYS } from '@/lib/storage';

/** The work-order writes that may wait (docs/workorders.md, "Offline and retries"). */
export type QueuedRoute =
  | '/v2/workorder/transition/{uid}'
  | '/v2/workorder/comment/{uid}'
  | '/v2/workorder/attachment/{uid}'
  | '/v2/workorder/checkin/{uid}'
  | '/v2/workorder/checklist/{uid}'
  | '/v2/workorder/checklist/answer/{uid}';

export interface QueuedAction {
  /** The Idempotency-Key, made when the action was taken. */
  key: string;
  orderId: number;
  /** The order's number, for the list. */
  number: string;
  route: QueuedRoute;
  body: unknown;
  /** What it was: a text key and its values (ops.queue.what.*). */
  what: string;
  /** The user who took it (only they send it). */
  user: string;
  queuedAt: number;
  /**
   * An attachment's placeholder id (negative) while it waits: a checklist answer taken offline
   * names it, and is given the attachment's real id once the attachment is stored.
   */
  ref?: number;
}

export interface RefusedAction extends QueuedAction {
  /** The server's words. */
  message: string;
}

interface State {
  queue: QueuedAction[];
  refused: RefusedAction[];
  sending: boolean;
}

const STORE = STORAGE_KEYS.workOrderQueue;
/** A queue bounded so that storage cannot fill: photos are the large part. */
export const MAX_QUEUED = 200;

let state: State = load();
const listeners = new Set<() => void>();

function load(): State {
  try {
    const raw = window.localStorage.getItem(STORE);
    const kept = raw ? (JSON.parse(raw) as Partial<State>) : {};
    return { queue: kept.queue ?? [], refused: kept.refused ?? [], sending: false };
  } catch {
    return { queue: [], refused: [], sending: false };
  }
}

function set(next: Partial<State>): void {
  state = { ...state, ...next };
  try {
    window.localStorage.setItem(STORE, JSON.stringify({ queue: state.queue, refused: state.refused }));
  } catch {
    // storage full: the queue stays in memory for this visit
  }
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The queue, the refused actions and whether a send is under way. */
export function useOfflineQueue(): State {
  return useSyncExternalStore(subscribe, () => state);
}

function me(): string {
  return keptProfile()?.username ?? '';
}

/** A fresh Idempotency-Key. */
export function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

function post<T>(a: QueuedAction, handleErrors: boolean): Promise<T> {
  return request<T>(fillPath(a.route, { uid: a.orderId }), {
    method: 'POST',
    body: a.body,
    headers: { 'Idempotency-Key': a.key },
    handleErrors,
  });
}

/** The call could not reach the server (offline, timed out): worth sending again later. */
export function unreachable(err: unknown): boolean {
  return err instanceof ApiError && err.code === 0;
}

/**
 * Takes an action: sends it now when the network allows, else keeps it for later. Resolves
 * with the server's answer, or 'queued'. A refusal by the server rejects as usual.
 */
export async function act<T>(action: Omit<QueuedAction, 'key' | 'user' | 'queuedAt'>): Promise<T | 'queued'> {
  // queuedAt orders and names the actions: never twice the same
  const queuedAt = Math.max(Date.now(), (state.queue[state.queue.length - 1]?.queuedAt ?? 0) + 1);
  const a: QueuedAction = { ...action, key: newKey(), user: me(), queuedAt };
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  if (!offline && state.queue.length === 0) {
    try {
      return await post<T>(a, true);
    } catch (err) {
      if (!unreachable(err)) throw err;
    }
  }
  if (state.queue.length >= MAX_QUEUED) {
    throw new ApiError(0, 'queue full');
  }
  // behind the actions already waiting, so that they reach the server in the order taken
  set({ queue: [...state.queue, a] });
  return 'queued';
}

/**
 * Sends the waiting actions in order; stops at the first that cannot reach the server. Each
 * answer is handed to onSent (the order's detail, to show). Returns how many were sent.
 */
export async function flush(onSent?: (a: QueuedAction, answer: unknown) => void): Promise<number> {
  if (state.sending || state.queue.length === 0) return 0;
  set({ sending: true });
  let sent = 0;
  try {
    for (;;) {
      const a = state.queue.find((q) => q.user === me());
      if (!a) break;
      try {
        const answer = await post<unknown>(a, false);
        sent++;
        let rest = state.queue.filter((q) => q.key !== a.key);
        const stored = a.ref !== undefined ? storedAttachment(answer, a) : undefined;
        if (stored !== undefined) {
          // the answers taken offline that named the waiting photo now name the stored one
          rest = rest.map((q) => (attachmentOf(q) === a.ref ? { ...q, body: { ...(q.body as object), attachmentId: stored } } : q));
        }
        set({ queue: rest });
        onSent?.(a, answer);
      } catch (err) {
        if (unreachable(err)) break;
        const message = err instanceof ApiError ? err.msg : String(err);
        set({ queue: state.queue.filter((q) => q.key !== a.key), refused: [...state.refused, { ...a, message }] });
      }
    }
  } finally {
    set({ sending: false });
  }
  return sent;
}

/** The attachment id a queued answer names, if any. */
function attachmentOf(q: QueuedAction): number | undefined {
  const id = (q.body as { attachmentId?: unknown } | null)?.attachmentId;
  return typeof id === 'number' ? id : undefined;
}

/** The id the server gave an attachment just sent: the newest of its name in the answer. */
function storedAttachment(answer: unknown, a: QueuedAction): number | undefined {
  const name = (a.body as { name?: string }).name;
  const files = (answer as { attachments?: { id: number; name: string }[] } | null)?.attachments ?? [];
  return files.filter((f) => f.name === name).reduce<number | undefined>((m, f) => (m === undefined || f.id > m ? f.id : m), undefined);
}

/** Forgets a refused action once the user has read it. */
export function dismiss(key: string): void {
  set({ refused: state.refused.filter((r) => r.key !== key) });
}

/** Tests: start from an empty queue. */
export function resetQueue(): void {
  set({ queue: [], refused: [], sending: false });
}
