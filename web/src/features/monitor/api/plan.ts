import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';

export type PlanMonth = Schemas['MonthFigures'];

/** GET /v2/plan/list?year=: planned against actual generation per month of a year. */
export type PlanYear = Schemas['PlanOverview'];

export function planQuery(year: number) {
  return queryOptions({
    queryKey: ['plan', 'list', year],
    queryFn: ({ signal }) => typedApi.get('/v2/plan/list', { query: { year } }, { signal }),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

export function usePlan(year: number) {
  return useQuery(planQuery(year));
}
