import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api-client';
import { LIVE_QUERY } from '@/lib/query-client';

/** What a period's change is measured against (docs/kpi.md). */
export type CompareRule = 'sameTimeYesterday' | 'sameDaysLastMonth' | 'sameDaysLastYear';

/**
 * A figure for the current period beside the same stretch of the previous one (yesterday up to the
 * same local time, last month or year up to the same day); change in %, 0 when not compared.
 */
export interface PeriodFigure {
  value: number;
  previous: number;
  change: number;
  compare?: CompareRule;
}

export type PeriodKey = 'day' | 'month' | 'year' | 'total';

export type Periods = Record<PeriodKey, PeriodFigure>;

export interface Money {
  currency: string;
  day: number;
  month: number;
  year: number;
  total: number;
}

/** The fleet's profit in the organisation's base currency (docs/kpi.md, "Money in one currency"). */
export type BaseMoney = components['schemas']['BaseMoney'];

/** GET /v2/summary/all: fleet totals of the visible stations. */
export interface FleetSummary {
  stations: number;
  capacityKwp: number;
  devices: number;
  devicesOnline: number;
  devicesFault: number;
  onlineRatio: number;
  faultRatio: number;
  currentPowerKw: number;
  powerNormalization: number;
  energyKwh: Periods;
  co2ReductionKg: Periods;
  profit: Money[];
  profitBase?: BaseMoney;
  emissionFactorKgPerKwh: number;
}

export const fleetSummaryQuery = queryOptions({
  queryKey: ['summary', 'all'],
  queryFn: ({ signal }) => api.get<FleetSummary>('/v2/summary/all', { signal }),
  ...LIVE_QUERY,
});

export function useFleetSummary() {
  return useQuery(fleetSummaryQuery);
}
