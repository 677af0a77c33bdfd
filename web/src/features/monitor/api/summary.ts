import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { LIVE_QUERY } from '@/lib/query-client';

/** What a period's change is measured against (docs/kpi.md): PeriodFigure.compare. */
export type CompareRule = 'sameTimeYesterday' | 'sameDaysLastMonth' | 'sameDaysLastYear';

/**
 * A figure for the current period beside the same stretch of the previous one (yesterday up to the
 * same local time, last month or year up to the same day); change in %, 0 when not compared.
 */
export type PeriodFigure = Schemas['MonitorPeriod'];

export type PeriodKey = 'day' | 'month' | 'year' | 'total';

/** A figure for each period (day, month, year, total). */
export type Periods = Schemas['Periods'];

/** The fleet's profit in one currency, per period. */
export type Money = Schemas['MonitorMoney'];

/** The fleet's profit in the organisation's base currency (docs/kpi.md, "Money in one currency"). */
export type BaseMoney = Schemas['BaseMoney'];

/** GET /v2/summary/all: fleet totals of the visible stations. */
export type FleetSummary = Schemas['All'];

export const fleetSummaryQuery = queryOptions({
  queryKey: ['summary', 'all'],
  queryFn: ({ signal }) => typedApi.get('/v2/summary/all', undefined, { signal }),
  ...LIVE_QUERY,
});

export function useFleetSummary() {
  return useQuery(fleetSummaryQuery);
}
