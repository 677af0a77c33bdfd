import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';

/** POST /v2/tools/yield: a planned array. */
export type YieldInput = Schemas['YieldInput'];

export type YieldResult = Schemas['YieldResult'];

/** POST /v2/tools/strings: a string of modules on one MPPT input. */
export type StringInput = Schemas['StringInput'];

export type StringCheck = Schemas['StringCheck'];

export type StringResult = Schemas['StringResult'];

export type CO2Factors = Schemas['CO2Factors'];

/** A station's site for pre-filling the estimator (GET /v2/site/detail/{stationId}). */
export type StationSite = Schemas['StationDetail'];

export function useEstimateYield() {
  return useMutation({ mutationFn: (input: YieldInput) => typedApi.post('/v2/tools/yield', { body: input }) });
}

export function useCheckString() {
  return useMutation({ mutationFn: (input: StringInput) => typedApi.post('/v2/tools/strings', { body: input }) });
}

export const co2Query = queryOptions({
  queryKey: ['tools', 'co2factors'],
  queryFn: ({ signal }) => typedApi.get('/v2/tools/co2factors', undefined, { signal }),
  staleTime: 10 * 60_000,
});

export function useCO2Factors() {
  return useQuery(co2Query);
}

export function fetchStationSite(id: number): Promise<StationSite> {
  return typedApi.get('/v2/site/detail/{stationId}', { path: { stationId: id } });
}
