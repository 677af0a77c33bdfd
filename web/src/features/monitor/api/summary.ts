import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { LIVE_QUERY } from '@/lib/query-client';

/** A figure for the current period beside the whole previous one; change in %. */
export interface PeriodFigure {
  value: number;
  previous: number;
  change: number;
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
