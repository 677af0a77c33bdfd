import { create } from 'zustand';

/** Every localStorage key the console writes, in one place. */
export const STORAGE_KEYS = {
  token: 'helio-token',
  cid: 'helio-cid',
  alarmList: 'helio-alarm-list',
  locale: 'helio-locale',
  location: 'helio-location',
  settings: 'helio-settings',
  profile: 'helio-profile',
  /** Work orders kept for reading offline (forgotten at sign-out). */
  workOrdersKept: 'helio-wo-kept',
  /** Work-order actions waiting for the network (kept across sign-outs: never lost). */
  workOrderQueue: 'helio-wo-queue',
} as const;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

interface TokenState {
  token: string | null;
}

/** Mirrors the stored bearer token so components re-render when it changes. */
export const useTokenStore = create<TokenState>(() => ({ token: read(STORAGE_KEYS.token) }));

export function useToken(): string | null {
  return useTokenStore((state) => state.token);
}

export function getToken(): string | null {
  return read(STORAGE_KEYS.token);
}

export function setToken(token: string): void {
  window.localStorage.setItem(STORAGE_KEYS.token, token);
  useTokenStore.setState({ token });
}

/** Forgets the session: token, client id and the stored alarm list (SPEC.md section 8, code 401). */
export function clearSessionStorage(): void {
  window.localStorage.removeItem(STORAGE_KEYS.token);
  window.localStorage.removeItem(STORAGE_KEYS.cid);
  window.localStorage.removeItem(STORAGE_KEYS.alarmList);
  window.localStorage.removeItem(STORAGE_KEYS.profile);
  window.localStorage.removeItem(STORAGE_KEYS.workOrdersKept);
  useTokenStore.setState({ token: null });
}
