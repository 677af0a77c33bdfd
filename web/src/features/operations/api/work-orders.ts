import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons';
import { type ListSort, parseListSort, sortQuery } from '@/components/list/list-sort';
import type { QueryValue } from '@/lib/api-client';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { downloadFile } from '@/lib/download';
import { queryClient } from '@/lib/query-client';
import { keptRead } from '../offline/kept';
import { act, type QueuedRoute } from '../offline/queue';

/** Every work-order query's key starts with this; the push invalidates it. */
export const WORK_ORDER_KEY = 'workorder';

export const WO_STATUSES = [1, 2, 3, 4, 5] as const;
export const WO_PRIORITIES = [1, 2, 3, 4] as const;
export const WO_MINE = ['started', 'copied', 'assigned'] as const;
export const WORK_ORDER_ACTIONS = ['accept', 'reject', 'start', 'finish', 'close'] as const;
export type WorkOrderAction = (typeof WORK_ORDER_ACTIONS)[number];

/** The actions of a detail this console knows (a newer server may offer more). */
export function knownActions(actions: readonly string[]): WorkOrderAction[] {
  return actions.filter((a): a is WorkOrderAction => (WORK_ORDER_ACTIONS as readonly string[]).includes(a));
}
/** Actions whose comment is required (the server says so too). */
export const COMMENT_REQUIRED: readonly WorkOrderAction[] = ['reject', 'finish'];

/** A work order (internal/workorder/query.go). */
export type WorkOrder = Schemas['WorkorderOrder'];

export type WorkOrderEvent = Schemas['WorkorderEvent'];

export type WorkOrderComment = Schemas['Comment'];

export type WorkOrderAttachment = Schemas['Attachment'];

export type WorkOrderDetail = Schemas['WorkorderDetail'];

export type WorkOrderSummary = Schemas['WorkorderSummary'];

export type People = Schemas['People'];

/**
 * The columns the work-order list sorts by on the server (internal/workorder/query.go): priority
 * by urgency, due (the planned end), status in the workflow's order.
 */
export const WO_SORTS = ['priority', 'due', 'status'] as const;

/** The list's filters as the address holds them; absent means "all". */
export interface WorkOrderFilters extends ListSort {
  stationId?: number;
  status?: number;
  priority?: number;
  timeoutStatus?: number;
  mine?: string;
  q?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export const FILTER_KEYS = ['stationId', 'status', 'priority', 'timeoutStatus', 'mine', 'q', 'from', 'to', 'page', 'pageSize'];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the filters from the address; unknown values fall back to "all". */
export function parseWorkOrderFilters(params: URLSearchParams): WorkOrderFilters {
  const int = (key: string, allowed?: readonly number[]) => {
    const raw = params.get(key);
    const n = Number(raw);
    if (raw === null || raw === '' || !Number.isInteger(n)) {
      return undefined;
    }
    if (allowed) {
      return allowed.includes(n) ? n : undefined;
    }
    return n > 0 ? n : undefined;
  };
  const day = (key: string) => {
    const value = params.get(key);
    return value && DAY.test(value) ? value : undefined;
  };
  const mine = params.get('mine');
  const pageSize = int('pageSize');
  return {
    stationId: int('stationId'),
    status: int('status', WO_STATUSES),
    priority: int('priority', WO_PRIORITIES),
    timeoutStatus: int('timeoutStatus', [0, 1]),
    mine: mine && (WO_MINE as readonly string[]).includes(mine) ? mine : undefined,
    q: params.get('q')?.slice(0, 100) || undefined,
    from: day('from'),
    to: day('to'),
    ...parseListSort(params, WO_SORTS),
    page: int('page') ?? 1,
    pageSize: pageSize && pageSize <= 200 ? pageSize : 10,
  };
}

/** The filters as the calls take them: local days become instants, "to" exclusive. */
export function toWorkOrderQuery(filters: WorkOrderFilters, paged = true): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {
    stationId: filters.stationId,
    status: filters.status,
    priority: filters.priority,
    timeoutStatus: filters.timeoutStatus,
    mine: filters.mine,
    q: filters.q,
    ...sortQuery(filters),
  };
  if (filters.from) {
    const [y, m, d] = filters.from.split('-').map(Number) as [number, number, number];
    query.from = new Date(y, m - 1, d).toISOString();
  }
  if (filters.to) {
    const [y, m, d] = filters.to.split('-').map(Number) as [number, number, number];
    query.to = new Date(y, m - 1, d + 1).toISOString();
  }
  if (paged) {
    query.page = filters.page;
    query.pageSize = filters.pageSize;
  }
  for (const key of Object.keys(query)) {
    if (query[key] === undefined) {
      delete query[key];
    }
  }
  return query;
}

/** The list of orders the filters select (a page of it). */
export const workOrderListQuery = (filters: WorkOrderFilters) => {
  const query = toWorkOrderQuery(filters);
  return queryOptions({
    queryKey: [WORK_ORDER_KEY, 'list', query],
    // kept on the phone, so that the crew's orders read offline
    queryFn: ({ signal }) => keptRead('lists', JSON.stringify(query), () => typedApi.get('/v2/workorder/list', { query }, { signal })),
    // offline too: the kept copy answers (offline/kept.ts)
    networkMode: 'always',
    // Timeouts move with the clock; the screen also recomputes them every half minute.
    refetchInterval: 60_000,
  });
};

export function useWorkOrderList(filters: WorkOrderFilters) {
  return useQuery({ ...workOrderListQuery(filters), placeholderData: keepPreviousData });
}

/** The totals of the orders the filters select. */
export const workOrderSummaryQuery = (filters: WorkOrderFilters) => {
  // the totals do not depend on the order
  const { sort: _sort, order: _order, ...unsorted } = filters;
  const query = toWorkOrderQuery(unsorted, false);
  return queryOptions({
    queryKey: [WORK_ORDER_KEY, 'summary', query],
    queryFn: ({ signal }) => typedApi.get('/v2/workorder/summary', { query }, { signal }),
    refetchInterval: 60_000,
  });
};

export function useWorkOrderSummary(filters: WorkOrderFilters) {
  return useQuery({ ...workOrderSummaryQuery(filters), placeholderData: keepPreviousData });
}

export const workOrderDetailQuery = (id: number) =>
  queryOptions({
    queryKey: [WORK_ORDER_KEY, 'detail', id],
    queryFn: ({ signal }) =>
      keptRead('details', String(id), () => typedApi.get('/v2/workorder/detail/{uid}', { path: { uid: id } }, { signal })),
    networkMode: 'always',
    staleTime: 0,
  });

export function useWorkOrderDetail(id: number | undefined) {
  return useQuery({ ...workOrderDetailQuery(id ?? 0), enabled: id !== undefined && id > 0 });
}

/** Who may be named on an order. */
export const peopleQuery = queryOptions({
  queryKey: [WORK_ORDER_KEY, 'people'],
  queryFn: ({ signal }) => typedApi.get('/v2/workorder/people', undefined, { signal }),
  staleTime: 5 * 60_000,
});

export function usePeople() {
  return useQuery(peopleQuery);
}

export type WorkOrderInput = Schemas['WorkorderInput'];

/** Shows a write's answer: the order's detail, and the lists refreshed. */
export function showDetail(detail: WorkOrderDetail): void {
  queryClient.setQueryData(workOrderDetailQuery(detail.id).queryKey, detail);
  void queryClient.invalidateQueries({ queryKey: [WORK_ORDER_KEY] });
}

/** A write that answers the order's detail: keep it and refresh the lists. */
function useDetailWrite<I>(call: (input: I) => Promise<WorkOrderDetail>) {
  return useMutation({ mutationFn: call, onSuccess: showDetail });
}

/**
 * A write a crew member makes on site: sent now, or queued while offline (offline/queue.ts),
 * always under an Idempotency-Key. Resolves with the detail, or 'queued'.
 */
function useSiteWrite<I>(order: { id: number; number: string }, route: QueuedRoute, what: (input: I) => string) {
  return useMutation({
    // never paused offline: the action is queued instead (offline/queue.ts)
    networkMode: 'always',
    mutationFn: (input: I) =>
      act<WorkOrderDetail>({
        orderId: order.id,
        number: order.number,
        route,
        body: input,
        what: what(input),
        // a photo waiting offline gets a placeholder id the checklist may name
        ...(route === '/v2/workorder/attachment/{uid}' ? { ref: -Date.now() } : {}),
      }),
    onSuccess: (answer) => {
      if (answer !== 'queued') showDetail(answer);
    },
  });
}

export const useCreateWorkOrder = () =>
  useDetailWrite((input: WorkOrderInput) => typedApi.post('/v2/workorder/add', { body: input }));

export const useMoveWorkOrder = (order: { id: number; number: string }) =>
  useSiteWrite(order, '/v2/workorder/transition/{uid}', (input: { action: WorkOrderAction; comment: string }) => `action.${input.action}`);

export const useAssignWorkOrder = (id: number) =>
  useDetailWrite((input: { assigneeUserId?: number; assigneeDeptId?: number; comment?: string }) =>
    typedApi.post('/v2/workorder/assign/{uid}', { path: { uid: id }, body: input }),
  );

export const useCommentWorkOrder = (order: { id: number; number: string }) =>
  useSiteWrite(order, '/v2/workorder/comment/{uid}', (_: { body: string }) => 'comment');

export const useAttachToWorkOrder = (order: { id: number; number: string }) =>
  useSiteWrite(order, '/v2/workorder/attachment/{uid}', (_: { name: string; data: string }) => 'attachment');

export type CheckInInput = Schemas['CheckInInput'];
export type ChecklistAnswer = Schemas['ChecklistAnswerInput'];
export type Checklist = Schemas['Checklist'];
export type ChecklistTemplate = Schemas['ChecklistTemplate'];

export const useCheckIn = (order: { id: number; number: string }) =>
  useSiteWrite(order, '/v2/workorder/checkin/{uid}', (input: CheckInInput) => `checkin.${input.kind}`);

export const useAnswerItem = (order: { id: number; number: string }) =>
  useSiteWrite(order, '/v2/workorder/checklist/answer/{uid}', (_: ChecklistAnswer) => 'answer');

export const useTakeChecklist = (order: { id: number; number: string }) =>
  useSiteWrite(order, '/v2/workorder/checklist/{uid}', (_: { templateId: number }) => 'checklist');

export const checklistTemplatesQuery = queryOptions({
  queryKey: [WORK_ORDER_KEY, 'templates'],
  queryFn: ({ signal }) => keptRead('lists', 'templates', () => typedApi.get('/v2/checklist/template/list', undefined, { signal })),
  networkMode: 'always',
  staleTime: 5 * 60_000,
});

export function downloadAttachment(orderId: number, file: WorkOrderAttachment): Promise<string> {
  return downloadFile(`/v2/workorder/attachment/${orderId}/${file.id}`, {}, file.name);
}

export function exportWorkOrders(format: ExportFormat, filters: WorkOrderFilters): Promise<string> {
  const stamp = new Date().toISOString().slice(0, 10);
  return downloadFile('/v2/workorder/export', { ...toWorkOrderQuery(filters, false), format }, `workorders-${stamp}.${format}`);
}

/** The timeout of an open order at now (kept live on screen; the server agrees at each read). */
export function liveTimeout(order: WorkOrder, now: number): { timeout: number; overtimeHours: number } {
  const open = order.status >= 1 && order.status <= 3;
  if (!open) {
    return { timeout: order.timeoutStatus, overtimeHours: order.overtimeHours };
  }
  const late = now - new Date(order.plannedEnd).getTime();
  return late > 0 ? { timeout: 1, overtimeHours: Math.round(late / 36_000) / 100 } : { timeout: 0, overtimeHours: 0 };
}
