import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons';
import { type ListSort, parseListSort, sortQuery } from '@/components/list/list-sort';
import { api, type QueryValue } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { queryClient } from '@/lib/query-client';

/** Every alarm query's key starts with this; the live push invalidates it. */
export const ALARM_KEY = 'warn';

export const DEAL_STATUSES = [0, 1] as const;
export const ALARM_STATUSES = [1, 2] as const;
export const ALARM_LEVELS = [0, 1, 2] as const;
export const ALARM_TYPES = [1, 2] as const;
/** Device types an alarm can carry; the list filter numbers them 1-5 in this order. */
export const ALARM_DEVICE_TYPES = ['inverter', 'battery', 'storage', 'meter', 'collector'] as const;
/** 1 remote reset, 2 on-site repair, 3 part replaced, 4 false alarm, 5 other. */
export const DEAL_METHODS = [1, 2, 3, 4, 5] as const;

/** An alarm (internal/alarm/query.go). */
export interface Alarm {
  id: number;
  stationId: number;
  stationName: string;
  parentStationId: number;
  timezone: string;
  deviceId: number;
  deviceName: string;
  deviceSn: string;
  deviceType: string;
  rule: string;
  ruleName: string;
  /** 1 device alarm, 2 data alarm */
  type: number;
  /** 0 signal change, 1 alarm, 2 fault */
  level: number;
  /** 1 occurring, 2 recovered */
  alarmStatus: number;
  /** 0 unprocessed, 1 processed */
  dealStatus: number;
  description: string;
  occurTime: string;
  startTime: string;
  lastAlarmTime: string;
  recoveryTime: string | null;
  durationMin: number;
  reason: string;
  dealMethod: number;
  dealMethodName: string;
  dealBy: string;
  dealTime: string | null;
}

export interface Deal {
  id: number;
  reason: string;
  dealMethod: number;
  dealMethodName: string;
  userId: number;
  userName: string;
  time: string;
}

/** A work order opened from the alarm, with its status now. */
export interface AlarmOrder {
  id: number;
  number: string;
  /** in the reader's language when it was made from the alarm's description */
  title: string;
  /** 1 pending accept, 2 pending process, 3 executing, 4 finished, 5 rejected */
  status: number;
  /** statuses 1-3: the alarm gets no other order meanwhile */
  open: boolean;
  submitTime: string;
  updateTime: string;
}

export interface AlarmDetail extends Alarm {
  deals: Deal[];
  /** newest first */
  orders: AlarmOrder[];
  /** the one still open, null when none */
  openOrder: AlarmOrder | null;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** GET /v2/warn/dailyinfo: alarms that started today in their station's time zone. */
export interface DailyInfo {
  total: number;
  deviceAlarms: number;
  dataAlarms: number;
  processed: number;
  unprocessed: number;
  processRatio: number;
  occurring: number;
  byLevel: Record<string, number>;
}

/**
 * The columns the alarm list sorts by on the server (internal/alarm/query.go): when it occurred,
 * its level, and how long it lasted (until now while occurring).
 */
export const ALARM_SORTS = ['time', 'level', 'duration'] as const;

/**
 * The list's filters as the screen holds them (SPEC.md section 4). dealStatus -1, alarmStatus 0
 * and an absent level, type or device type mean "all". from and to are local calendar days.
 */
export interface AlarmFilters extends ListSort {
  dealStatus: -1 | 0 | 1;
  alarmStatus: 0 | 1 | 2;
  level?: number;
  type?: number;
  deviceType?: string;
  stationId?: number;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export const DEFAULT_FILTERS: AlarmFilters = { dealStatus: -1, alarmStatus: 0, page: 1, pageSize: 10 };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Local midnight of a yyyy-MM-dd day as RFC 3339, so the range follows the user's calendar. */
export function dayStart(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date).toISOString();
}

/** The filters as the list and export calls take them: "all" is left out, days become instants. */
export function toListQuery(filters: AlarmFilters, paged = true): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  if (filters.stationId) {
    query.stationId = filters.stationId;
  }
  if (filters.dealStatus !== -1) {
    query.dealStatus = filters.dealStatus;
  }
  if (filters.alarmStatus !== 0) {
    query.alarmStatus = filters.alarmStatus;
  }
  if (filters.level !== undefined) {
    query.level = filters.level;
  }
  if (filters.type !== undefined) {
    query.type = filters.type;
  }
  if (filters.deviceType) {
    query.deviceType = filters.deviceType;
  }
  if (filters.from && DAY.test(filters.from)) {
    query.from = dayStart(filters.from);
  }
  if (filters.to && DAY.test(filters.to)) {
    // "to" is exclusive: the start of the day after the last one chosen.
    const [year, month, date] = filters.to.split('-').map(Number) as [number, number, number];
    query.to = new Date(year, month - 1, date + 1).toISOString();
  }
  Object.assign(query, sortQuery(filters));
  if (paged) {
    query.page = filters.page;
    query.pageSize = filters.pageSize;
  }
  return query;
}

function oneOf<T extends number>(value: string | null, allowed: readonly T[]): T | undefined {
  if (value === null || value.trim() === '') {
    return undefined;
  }
  const n = Number(value);
  return allowed.includes(n as T) ? (n as T) : undefined;
}

/** Reads the filters from the address (unknown values fall back to "all"). */
export function parseFilters(params: URLSearchParams): AlarmFilters {
  const positive = (key: string) => {
    const n = Number(params.get(key));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const day = (key: string) => {
    const value = params.get(key);
    return value && DAY.test(value) ? value : undefined;
  };
  const deviceType = params.get('deviceType');
  const pageSize = positive('pageSize');
  return {
    dealStatus: oneOf(params.get('dealStatus'), [-1, 0, 1] as const) ?? -1,
    alarmStatus: oneOf(params.get('alarmStatus'), [0, 1, 2] as const) ?? 0,
    level: oneOf(params.get('level'), ALARM_LEVELS),
    type: oneOf(params.get('type'), ALARM_TYPES),
    deviceType: deviceType && (ALARM_DEVICE_TYPES as readonly string[]).includes(deviceType) ? deviceType : undefined,
    stationId: positive('stationId'),
    from: day('from'),
    to: day('to'),
    ...parseListSort(params, ALARM_SORTS),
    page: positive('page') ?? 1,
    pageSize: pageSize && pageSize <= 200 ? pageSize : DEFAULT_FILTERS.pageSize,
  };
}

export const alarmListQuery = (filters: AlarmFilters) =>
  queryOptions({
    queryKey: [ALARM_KEY, 'list', toListQuery(filters)],
    queryFn: ({ signal }) => api.get<Page<Alarm>>('/v2/warn/listbysite', { signal, query: toListQuery(filters) }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // The push refreshes the list as alarms arrive; this catches alarms no message announced.
    refetchInterval: 60_000,
  });

export function useAlarmList(filters: AlarmFilters) {
  return useQuery(alarmListQuery(filters));
}

export const alarmDetailQuery = (id: number) =>
  queryOptions({
    queryKey: [ALARM_KEY, 'detail', id],
    queryFn: ({ signal }) => api.get<AlarmDetail>(`/v2/warn/detail/${id}`, { signal }),
    staleTime: 0,
  });

export function useAlarmDetail(id: number | undefined) {
  return useQuery({ ...alarmDetailQuery(id ?? 0), enabled: id !== undefined && id > 0 });
}

export const dailyInfoQuery = (stationId?: number) =>
  queryOptions({
    queryKey: [ALARM_KEY, 'dailyinfo', { stationId: stationId ?? null }],
    queryFn: ({ signal }) =>
      api.get<DailyInfo>('/v2/warn/dailyinfo', { signal, query: { stationId: stationId || undefined } }),
    staleTime: 0,
    refetchInterval: 60_000,
  });

export function useDailyInfo(stationId?: number) {
  return useQuery(dailyInfoQuery(stationId));
}

export interface DealInput {
  reason: string;
  dealMethod: number;
}

/**
 * POST /v2/warn/deal/{id}. Failures follow the error catalogue; a 400 also carries the message of
 * each bad field (ApiError.fields), which the deal form puts beside the field.
 */
export function dealAlarm(id: number, input: DealInput): Promise<AlarmDetail> {
  return api.post<AlarmDetail>(`/v2/warn/deal/${id}`, input);
}

export function useDealAlarm(id: number) {
  return useMutation({
    mutationFn: (input: DealInput) => dealAlarm(id, input),
    onSuccess: (detail) => {
      queryClient.setQueryData(alarmDetailQuery(id).queryKey, detail);
      void queryClient.invalidateQueries({ queryKey: [ALARM_KEY] });
    },
  });
}

/** GET /v2/warn/export with the list's filters, saved as a CSV or XLSX file. */
export function exportAlarms(format: ExportFormat, filters: AlarmFilters): Promise<string> {
  const stamp = new Date().toISOString().slice(0, 10);
  return downloadFile('/v2/warn/export', { ...toListQuery(filters, false), format }, `alarms-${stamp}.${format}`);
}
