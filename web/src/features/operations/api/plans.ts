import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { Page } from '@/components/list/list-table';
import { api } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';

/** Plan queries share the monitor's key prefix, so an approval refreshes its chart too. */
export const PLAN_KEY = 'plan';

export const PLAN_STATUSES = [1, 2, 3, 4] as const;

/** A yearly plan on its way to approval (internal/plan/proposal.go). */
export interface Proposal {
  id: number;
  stationId: number;
  stationName: string;
  year: number;
  months: number[];
  totalKwh: number;
  /** 1 commit (draft), 2 in approval, 3 finished, 4 refused */
  status: number;
  submitterId: number;
  submitter: string;
  approverId: number;
  approver: string;
  refusalReason: string;
  submittedAt: string | null;
  decidedAt: string | null;
  updatedAt: string;
}

export interface PlanFigures {
  year: number;
  planKwh: number;
  actualKwh: number;
  completion: number;
  months: { month: number; planKwh: number; actualKwh: number; completion: number }[];
}

export function useProposals(year: number, stationId?: number) {
  const query = { year, stationId, pageSize: 200 };
  return useQuery({
    queryKey: [PLAN_KEY, 'proposals', query],
    queryFn: ({ signal }) => api.get<Page<Proposal>>('/v2/plan/proposal/list', { signal, query }),
    placeholderData: keepPreviousData,
  });
}

/** Plan against actual for one station and year (approved plans only). */
export function useStationFigures(stationId: number | undefined, year: number) {
  return useQuery({
    queryKey: [PLAN_KEY, 'get', stationId, year],
    queryFn: ({ signal }) => api.get<PlanFigures>(`/v2/plan/get/${stationId}`, { signal, query: { year } }),
    enabled: stationId !== undefined,
    placeholderData: keepPreviousData,
  });
}

/** GET /v2/plan/proposal/spread: a total spread by the station's expected monthly yield. */
export function spreadTotal(stationId: number, year: number, totalKwh: number): Promise<{ months: number[]; weights: number[] }> {
  return api.get('/v2/plan/proposal/spread', { query: { stationId, year, totalKwh } });
}

function usePlanWrite<I>(call: (input: I) => Promise<Proposal>) {
  return useMutation({
    mutationFn: call,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [PLAN_KEY] }),
  });
}

export const useSavePlan = () =>
  usePlanWrite((input: { stationId: number; year: number; months: number[] }) => api.post<Proposal>('/v2/plan/proposal/save', input));

export const useSubmitPlan = () =>
  usePlanWrite((input: { id: number; approverId: number }) =>
    api.post<Proposal>(`/v2/plan/proposal/submit/${input.id}`, { approverId: input.approverId }),
  );

export const useDecidePlan = () =>
  usePlanWrite((input: { id: number; decision: 'approve' | 'refuse'; reason?: string }) =>
    api.post<Proposal>(`/v2/plan/proposal/decide/${input.id}`, { decision: input.decision, reason: input.reason ?? '' }),
  );
