import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /v2/tools/yield: a planned array. */
export interface YieldInput {
  lat: number;
  lng: number;
  altitudeM: number;
  capacityKwp: number;
  tiltDeg: number;
  azimuthDeg: number;
  lossesPct: number;
  stationId: number;
}

export interface YieldResult {
  year: number;
  unit: string;
  monthlyKwh: number[];
  annualKwh: number;
  specificYieldKwhKwp: number;
  performanceRatio: number;
  poaKwhM2: number;
  ghiKwhM2: number;
  climate: 'station' | 'latitude';
}

/** POST /v2/tools/strings: a string of modules on one MPPT input. */
export interface StringInput {
  modulesPerString: number;
  moduleVocV: number;
  moduleVmpV: number;
  vocCoeffPctPerC: number;
  vmpCoeffPctPerC: number;
  inverterMaxDcV: number;
  mpptMinV: number;
  mpptMaxV: number;
  siteMinAirC: number;
  siteMaxAirC: number;
}

export interface StringCheck {
  key: 'vocCold' | 'vmpHot' | 'vmpCold';
  valueV: number;
  limitV: number;
  ok: boolean;
}

export interface StringResult {
  cellMinC: number;
  cellMaxC: number;
  checks: StringCheck[];
  ok: boolean;
  minModules: number;
  maxModules: number;
  recommendedRangeExists: boolean;
}

export interface CO2Factors {
  kpiFactorKgPerKwh: number;
  kpiScope: string;
  countries: { country: string; kgPerKwh: number; year: number }[];
}

/** A station's site for pre-filling the estimator (GET /v2/site/detail/{id}). */
export interface StationSite {
  id: number;
  name: string;
  lat: number;
  lng: number;
  capacityKwp: number;
  azimuth: number;
  inclination: number;
}

export function useEstimateYield() {
  return useMutation({ mutationFn: (input: YieldInput) => api.post<YieldResult>('/v2/tools/yield', input) });
}

export function useCheckString() {
  return useMutation({ mutationFn: (input: StringInput) => api.post<StringResult>('/v2/tools/strings', input) });
}

export const co2Query = queryOptions({
  queryKey: ['tools', 'co2factors'],
  queryFn: ({ signal }) => api.get<CO2Factors>('/v2/tools/co2factors', { signal }),
  staleTime: 10 * 60_000,
});

export function useCO2Factors() {
  return useQuery(co2Query);
}

export function fetchStationSite(id: number): Promise<StationSite> {
  return api.get<StationSite>(`/v2/site/detail/${id}`);
}
