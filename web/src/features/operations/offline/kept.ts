/**
 * The work orders a crew member looked at, kept on the phone so that they read offline: the
 * latest answers of the list and of each order's detail (its checklist, check-ins, comments and
 * attachments' names), bounded, and forgotten at sign-out (lib/storage.ts).
 */
import { STORAGE_KEYS } from '@/lib/storage';
import { unreachable } from './queue';

const STORE = STORAGE_KEYS.workOrdersKept;
const MAX_DETAILS = 50;
const MAX_LISTS = 10;

interface Kept {
  details: Record<string, { at: number; data: unknown }>;
  lists: Record<string, { at: number; data: unknown }>;
}

function read(): Kept {
  try {
    const raw = window.localStorage.getItem(STORE);
    return raw ? (JSON.parse(raw) as Kept) : { details: {}, lists: {} };
  } catch {
    return { details: {}, lists: {} };
  }
}

function bounded(m: Kept['details'], max: number): Kept['details'] {
  const entries = Object.entries(m).sort((a, b) => b[1].at - a[1].at);
  return Object.fromEntries(entries.slice(0, max));
}

function write(k: Kept): void {
  try {
    window.localStorage.setItem(STORE, JSON.stringify({ details: bounded(k.details, MAX_DETAILS), lists: bounded(k.lists, MAX_LISTS) }));
  } catch {
    // storage full: nothing more is kept
  }
}

/**
 * Reads through the kept copy: the fresh answer is kept; when the server cannot be reached,
 * the kept copy answers (or the failure stands when there is none).
 */
export async function keptRead<T>(kind: 'details' | 'lists', key: string, load: () => Promise<T>): Promise<T> {
  try {
    const data = await load();
    const k = read();
    k[kind][key] = { at: Date.now(), data };
    write(k);
    return data;
  } catch (err) {
    const kept = read()[kind][key];
    if (kept && unreachable(err)) {
      return kept.data as T;
    }
    throw err;
  }
}
