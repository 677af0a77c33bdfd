import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { browserTimeZone } from '@/lib/format';
import { LIVE_QUERY } from '@/lib/query-client';

/** GET /v2/warn/dailyinfo: alarms that started today in their station's time zone. */
export type DailyAlarms = Schemas['DailyInfo'];

export type TrendType = 'day' | 'month' | 'year';

/** A fault-trend point: alarms per device type on one day, month or year. */
export type TypeTrendPoint = Schemas['TypeTrend']['list'][number];

/** GET /v2/warn/typetrendbydate: 15 days, 12 months or the years. */
export type TypeTrend = Schemas['TypeTrend'];

export const dailyAlarmsQuery = queryOptions({
  queryKey: ['warn', 'dailyinfo'],
  queryFn: ({ signal }) => typedApi.get('/v2/warn/dailyinfo', undefined, { signal }),
  ...LIVE_QUERY,
});

export function faultTrendQuery(type: TrendType) {
  return queryOptions({
    queryKey: ['warn', 'typetrendbydate', type],
    queryFn: ({ signal }) =>
      typedApi.get('/v2/warn/typetrendbydate', { query: { type, tz: browserTimeZone() } }, { signal }),
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useDailyAlarms() {
  return useQuery(dailyAlarmsQuery);
}

export function useFaultTrend(type: TrendType) {
  return useQuery(faultTrendQuery(type));
}
