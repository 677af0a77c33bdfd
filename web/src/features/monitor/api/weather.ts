import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { LIVE_QUERY } from '@/lib/query-client';

/** GET /v2/site/weather/{stationId}: a station's weather now. */
export type Weather = Schemas['Weather'];

export function weatherQuery(stationId: number) {
  return queryOptions({
    queryKey: ['site', 'weather', stationId],
    queryFn: ({ signal }) => typedApi.get('/v2/site/weather/{stationId}', { path: { stationId } }, { signal }),
    ...LIVE_QUERY,
  });
}

export function useWeather(stationId: number | undefined) {
  return useQuery({ ...weatherQuery(stationId ?? 0), enabled: stationId !== undefined });
}
