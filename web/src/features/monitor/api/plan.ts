import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface PlanMonth {
  month: number;
  planKwh: number;
  actualKwh: number;
  completion: number;
}

/** GET /v2/plan/list?year=: planned against actual generation per month of a year. */
export interface PlanYear {
  year: number;
  unit: string;
  planKwh?: number;
  actualKwh?: number;
  completion?: number;
  /** The plan up to now (past months whole, this month in part) and actual ÷ it, %. */
  planToDateKwh?: number;
  completionToDate?: number;
  months: PlanMonth[];
  stations: { stationId: number; name: string; planKwh: number; actualKwh: number; completion: number }[];
}

export function planQuery(year: number) {
  return queryOptions({
    queryKey: ['plan', 'list', year],
    queryFn: ({ signal }) => api.get<PlanYear>('/v2/plan/list', { signal, query: { year } }),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

export function usePlan(year: number) {
  return useQuery(planQuery(year));
}
