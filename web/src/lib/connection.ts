import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';
import { queryClient } from './query-client';

/**
 * Whether the server answered the console's last call: false after a call that got no response
 * at all (no network, though the browser may think it has one), true again at the next answer.
 */
export const useServerReach = create<{ reachable: boolean }>(() => ({ reachable: true }));

/** What failed while the server could not be reached is asked for again once it can. */
function refetchFailed(): void {
  void queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
}

/** Called by the request layer after each call: answered, or no response at all. */
export function noteServerReach(answered: boolean): void {
  if (!answered && typeof navigator !== 'undefined' && navigator.onLine === false) {
    // the browser's own word, which it may have given before the queries listened
    onlineManager.setOnline(false);
  }
  if (useServerReach.getState().reachable === answered) {
    return;
  }
  useServerReach.setState({ reachable: answered });
  if (answered) {
    refetchFailed();
  }
}

// Listening from the first script on: the queries' own listeners start with the first render,
// after a browser may already have said it went offline.
if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => onlineManager.setOnline(false));
  window.addEventListener('online', () => {
    onlineManager.setOnline(true);
    refetchFailed();
  });
}

// A console opened without the network knows it from the start: its queries wait for the
// network (and run when it returns) instead of failing one by one.
if (typeof navigator !== 'undefined' && navigator.onLine === false) {
  onlineManager.setOnline(false);
}

const subscribeOnline = (listener: () => void) => onlineManager.subscribe(listener);
const isOnline = () => onlineManager.isOnline();

/** Whether the console can reach its server: the browser has a network and the last call was answered. */
export function useOnline(): boolean {
  const online = useSyncExternalStore(subscribeOnline, isOnline);
  const reachable = useServerReach((state) => state.reachable);
  return online && reachable;
}
