import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { paths } from '@/api/schema';
import { type Schemas, typedApi } from '@/lib/api-typed';

export const PERIODS = ['day', 'month', 'year', 'custom'] as const;
export type PeriodKind = (typeof PERIODS)[number];

/** GET /v2/analysis/overview's query: a period, and the fleet, a station or a device (scope and id). */
export type OverviewQuery = NonNullable<paths['/v2/analysis/overview']['get']>['parameters']['query'];

/**
 * A period as the server reads it (internal/analysis/period.go), in each station's own zone: date is
 * yyyy-MM-dd (day), yyyy-MM (month) or yyyy (year), from and to bound a custom period. The period
 * pickers hold it; its kind stays one of PERIODS.
 */
export type PeriodQuery = Pick<OverviewQuery, 'date' | 'from' | 'to'> & { period: PeriodKind };

/** Roll-up quantities of a period (internal/analysis/kpi.go). */
export type Totals = Schemas['Totals'];

export type Kpis = Schemas['KPIs'];

export type Site = Schemas['Site'];

export type Overview = Schemas['Overview'];

export type DeviceInfo = Schemas['DeviceInfo'];

/** A device a device overview can be made for (every device type is: inverter, battery, storage, meter). */
export type DeviceOption = Schemas['Item'];

export const overviewQuery = (q: OverviewQuery) =>
  queryOptions({
    queryKey: ['analysis', 'overview', q],
    queryFn: ({ signal }) => typedApi.get('/v2/analysis/overview', { query: { ...q } }, { signal }),
    placeholderData: keepPreviousData,
  });

export function useOverview(q: OverviewQuery, enabled = true) {
  return useQuery({ ...overviewQuery(q), enabled });
}

/** A station's inverters, batteries, storage units and meters (sub-stations' included) whose name or serial number holds name, for the device overview. */
export function useStationDevices(stationId: number, name: string) {
  return useQuery({
    queryKey: ['analysis', 'devices', stationId, name],
    queryFn: ({ signal }) =>
      typedApi.get('/v2/dev/listbytype', { query: { stationId, name: name || undefined, pageSize: 200 } }, { signal }),
    enabled: stationId > 0,
    placeholderData: keepPreviousData,
  });
}
