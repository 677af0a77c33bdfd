import { queryOptions, useQuery } from '@tanstack/react-query';
import { typedApi } from './api-typed';

/** The external page to show after logout, or "" for the console's own login page. */
export async function getLogoutUrl(): Promise<string> {
  const data = await typedApi.get('/v2/sys/eplat/logouturl', undefined, { handleErrors: false });
  return data?.url ?? '';
}

/** The external real-time monitor, or "" when there is none (its menu entry is then hidden). */
export async function getMonitorUrl(): Promise<string> {
  const data = await typedApi.get('/v2/sys/monitor/url');
  return data?.url ?? '';
}

export const monitorUrlQuery = queryOptions({
  queryKey: ['system', 'monitor-url'],
  queryFn: getMonitorUrl,
  staleTime: Infinity,
});

export function useMonitorUrl() {
  return useQuery(monitorUrlQuery);
}
