import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** GET/POST /v2/user/shortcuts: the areas in the user's "my menu", in order. */
export type Shortcuts = Schemas['Shortcuts'];

const KEY = ['user', 'shortcuts'] as const;

export const shortcutsQuery = queryOptions({
  queryKey: KEY,
  queryFn: ({ signal }) => typedApi.get('/v2/user/shortcuts', undefined, { signal }),
});

export function useShortcuts() {
  return useQuery(shortcutsQuery);
}

/** Replaces the list; the answer becomes the cached list. */
export function useSaveShortcuts() {
  return useMutation({
    mutationFn: (shortcuts: string[]) => typedApi.post('/v2/user/shortcuts', { body: { shortcuts } }),
    onSuccess: (data) => queryClient.setQueryData(KEY, data),
  });
}

/** GET /v2/message/counts: the alarms waiting to be processed. */
export const countsQuery = queryOptions({
  queryKey: ['workplace', 'counts'],
  queryFn: ({ signal }) => typedApi.get('/v2/message/counts', undefined, { signal }),
});

export function usePendingAlarms() {
  return useQuery(countsQuery);
}

/** Where each area is and its menu label (the console's route names). */
export const AREAS: Record<string, { path: string; label: string }> = {
  monitor: { path: '/monitor', label: 'menu.monitor' },
  realtimeMonitor: { path: '/realtime', label: 'menu.realtimeMonitor' },
  station: { path: '/station', label: 'menu.station' },
  stationTags: { path: '/station/tags', label: 'menu.station.tags' },
  device: { path: '/device', label: 'menu.device' },
  alarm: { path: '/alarm', label: 'menu.alarm' },
  analysis: { path: '/analysis', label: 'menu.analysis' },
  debug: { path: '/debug', label: 'menu.debug' },
  workOrder: { path: '/operations/workorder', label: 'menu.operations.workorder' },
  plan: { path: '/operations/plan', label: 'menu.operations.plan' },
  tools: { path: '/tools', label: 'menu.tools' },
  permission: { path: '/permission', label: 'menu.permission' },
};

/** A list with the item at index moved by delta (kept within bounds). */
export function moved<T>(list: readonly T[], index: number, delta: number): T[] {
  const to = Math.max(0, Math.min(list.length - 1, index + delta));
  const out = [...list];
  const [item] = out.splice(index, 1);
  out.splice(to, 0, item as T);
  return out;
}
