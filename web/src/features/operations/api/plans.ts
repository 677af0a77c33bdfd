import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Plan queries share the monitor's key prefix, so an approval refreshes its chart too. */
export const PLAN_KEY = 'plan';

export const PLAN_STATUSES = [1, 2, 3, 4] as const;

/** A yearly plan on its way to approval (internal/plan/proposal.go). */
export type Proposal = Schemas['Proposal'];

export type PlanFigures = Schemas['PlanOverview'];

export function useProposals(year: number, stationId?: number) {
  const query = { year, stationId, pageSize: 200 };
  return useQuery({
    queryKey: [PLAN_KEY, 'proposals', query],
    queryFn: ({ signal }) => typedApi.get('/v2/plan/proposal/list', { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Plan against actual for one station and year (approved plans only). */
export function useStationFigures(stationId: number | undefined, year: number) {
  return useQuery({
    queryKey: [PLAN_KEY, 'get', stationId, year],
    queryFn: ({ signal }) => typedApi.get('/v2/plan/get/{uid}', { path: { uid: stationId ?? 0 }, query: { year } }, { signal }),
    enabled: stationId !== undefined,
    placeholderData: keepPreviousData,
  });
}

/** GET /v2/plan/proposal/spread: a total spread by the station's expected monthly yield. */
export function spreadTotal(stationId: number, year: number, totalKwh: number) {
  return typedApi.get('/v2/plan/proposal/spread', { query: { stationId, year, totalKwh } });
}

function usePlanWrite<I>(call: (input: I) => Promise<Proposal>) {
  return useMutation({
    mutationFn: call,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [PLAN_KEY] }),
  });
}

export const useSavePlan = () =>
  usePlanWrite((input: { stationId: number; year: number; months: number[] }) => typedApi.post('/v2/plan/proposal/save', { body: input }));

export const useSubmitPlan = () =>
  usePlanWrite((input: { id: number; approverId: number }) =>
    typedApi.post('/v2/plan/proposal/submit/{uid}', { path: { uid: input.id }, body: { approverId: input.approverId } }),
  );

export const useDecidePlan = () =>
  usePlanWrite((input: { id: number; decision: 'approve' | 'refuse'; reason?: string }) =>
    typedApi.post('/v2/plan/proposal/decide/{uid}', { path: { uid: input.id }, body: { decision: input.decision, reason: input.reason ?? '' } }),
  );
