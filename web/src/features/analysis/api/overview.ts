import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const PERIODS = ['day', 'month', 'year', 'custom'] as const;
export type PeriodKind = (typeof PERIODS)[number];

/** A period as the server reads it (internal/analysis/period.go), in each station's own zone. */
export interface PeriodQuery {
  period: PeriodKind;
  /** yyyy-MM-dd (day), yyyy-MM (month), yyyy (year) */
  date?: string;
  from?: string;
  to?: string;
}

/** Roll-up quantities of a period (internal/analysis/kpi.go). */
export interface Totals {
  pvKwh: number;
  dischargeKwh: number;
  chargeKwh: number;
  importKwh: number;
  exportKwh: number;
  loadKwh: number;
  refEnergyKwh: number;
  tempRefKwh: number;
  inverterMin: number;
  onlineMin: number;
  faultMin: number;
  gridMeter: boolean;
  loadMeter: boolean;
  /** PV and load of the sites with a grid meter (what self-consumption and autarky use). */
  meteredPvKwh: number;
  siteLoadKwh: number;
}

export interface Kpis {
  yieldKwh: number;
  specificYield: number | null;
  equivalentHours: number | null;
  pr: number | null;
  prTemp: number | null;
  availability: number | null;
  co2Kg: number;
  revenue: number | null;
  currency: string;
  expectedKwh: number | null;
  actualVsExpected: number | null;
  selfConsumption: number | null;
  autarky: number | null;
  loadKwh: number | null;
}

export interface Site {
  capacityKwp: number;
  pricePerKwh: number;
  subsidyPerKwh: number;
  currency: string;
  storage: boolean;
}

export interface Overview {
  scope: 'fleet' | 'station' | 'device';
  name: string;
  period: { kind: PeriodKind; first: string; last: string; resolution: string };
  site: Site;
  totals: Totals;
  kpis: Kpis;
  revenue: { currency: string; amount: number }[];
  /** Several stations: the revenue in the organisation's base currency, each month at its rate (docs/kpi.md). */
  revenueBase?: { currency: string; amount: number; unconverted: string[] | null };
  series: { label: string; totals: Totals; kpis: Kpis }[];
  model: { emissionFactorKgPerKwh: number; tempCoeffPerC: number; systemLoss: number; inverterEta: number };
  /** KPI keys (as the cards name them) that do not apply: a single device has no site meters. */
  notApplicable: string[];
  device?: DeviceInfo;
}

export interface DeviceInfo {
  id: number;
  type: string;
  stationId: number;
  /** A meter's place: grid (import, export) or load (consumption); empty for other devices. */
  meterPosition: string;
  stationName: string;
  /** What site.capacityKwp is: the modules' kWp, the rated AC power (kW), or nothing known. */
  capacitySource: 'modules' | 'rated' | '';
}

/** A device a device overview can be made for (every device type is: inverter, battery, storage, meter). */
export interface DeviceOption {
  id: number;
  name: string;
  sn: string;
  type: string;
  stationName: string;
}

export interface OverviewQuery extends PeriodQuery {
  scope: 'fleet' | 'station' | 'device';
  id?: number;
}

export const overviewQuery = (q: OverviewQuery) =>
  queryOptions({
    queryKey: ['analysis', 'overview', q],
    queryFn: ({ signal }) => api.get<Overview>('/v2/analysis/overview', { signal, query: { ...q } }),
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
      api.get<{ list: DeviceOption[]; total: number }>('/v2/dev/listbytype', { signal, query: { stationId, name: name || undefined, pageSize: 200 } }),
    enabled: stationId > 0,
    placeholderData: keepPreviousData,
  });
}
