import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIVE_QUERY } from '@/lib/query-client';

/** GET /v2/site/weather/{stationId}: a station's weather now. */
export interface Weather {
  available: boolean;
  time?: string;
  code?: string;
  key?: string;
  group?: string;
  temperatureC: number;
  irradianceWm2: number;
  airQuality: number;
  airQualityKey?: string;
  windMs: number;
  sunElevationDeg: number;
}

export function weatherQuery(stationId: number) {
  return queryOptions({
    queryKey: ['site', 'weather', stationId],
    queryFn: ({ signal }) => api.get<Weather>(`/v2/site/weather/${stationId}`, { signal }),
    ...LIVE_QUERY,
  });
}

export function useWeather(stationId: number | undefined) {
  return useQuery({ ...weatherQuery(stationId ?? 0), enabled: stationId !== undefined });
}
