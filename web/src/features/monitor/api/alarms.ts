import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { browserTimeZone } from '@/lib/format';
import { LIVE_QUERY } from '@/lib/query-client';

/** GET /v2/warn/dailyinfo: alarms that started today in their station's time zone. */
export interface DailyAlarms {
  total: number;
  deviceAlarms: number;
  dataAlarms: number;
  processed: number;
  unprocessed: number;
  processRatio: number;
  occurring: number;
  byLevel: Record<string, number>;
}

export type TrendType = 'day' | 'month' | 'year';

/** A fault-trend point: alarms per device type on one day, month or year. */
export interface TypeTrendPoint {
  id: string;
  date: string;
  inverter: number;
  battery: number;
  storage: number;
  meter: number;
  collector?: number;
}

/** GET /v2/warn/typetrendbydate: 15 days, 12 months or the years. */
export interface TypeTrend {
  type: string;
  from: string;
  to: string;
  list: TypeTrendPoint[];
}

export const dailyAlarmsQuery = queryOptions({
  queryKey: ['warn', 'dailyinfo'],
  queryFn: ({ signal }) => api.get<DailyAlarms>('/v2/warn/dailyinfo', { signal }),
  ...LIVE_QUERY,
});

export function faultTrendQuery(type: TrendType) {
  return queryOptions({
    queryKey: ['warn', 'typetrendbydate', type],
    queryFn: ({ signal }) =>
      api.get<TypeTrend>('/v2/warn/typetrendbydate', { signal, query: { type, tz: browserTimeZone() } }),
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
