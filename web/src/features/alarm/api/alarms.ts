import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ExportFormat } from '@/components/export-buttons';
import { type ListSort, parseListSort, sortQuery } from '@/components/list/list-sort';
import type { QueryValue } from '@/lib/api-client';
import { type Schemas, typedApi } from '@/lib/api-typed';
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

/** The API's alarm types (internal/alarm), generated from the API description. */
export type Alarm = Schemas['Alarm'];
export type Deal = Schemas['Deal'];
/** A work order opened from the alarm, with its status now. */
export type AlarmOrder = Schemas['Order'];
export type AlarmDetail = Schemas['AlarmDetail'];
/** GET /v2/warn/dailyinfo: alarms that started today in their station's time zone. */
export type DailyInfo = Schemas['DailyInfo'];

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
    queryFn: ({ signal }) => typedApi.get('/v2/warn/listbysite', { query: toListQuery(filters) }, { signal }),
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
    queryFn: ({ signal }) => typedApi.get('/v2/warn/detail/{uid}', { path: { uid: id } }, { signal }),
    staleTime: 0,
  });

export function useAlarmDetail(id: number | undefined) {
  return useQuery({ ...alarmDetailQuery(id ?? 0), enabled: id !== undefined && id > 0 });
}

export const dailyInfoQuery = (stationId?: number) =>
  queryOptions({
    queryKey: [ALARM_KEY, 'dailyinfo', { stationId: stationId ?? null }],
    queryFn: ({ signal }) =>
      typedApi.get('/v2/warn/dailyinfo', { query: { stationId: stationId || undefined } }, { signal }),
    staleTime: 0,
    refetchInterval: 60_000,
  });

export function useDailyInfo(stationId?: number) {
  return useQuery(dailyInfoQuery(stationId));
}

export type DealInput = Schemas['DealInput'];

/**
 * POST /v2/warn/deal/{id}. Failures follow the error catalogue; a 400 also carries the message of
 * each bad field (ApiError.fields), which the deal form puts beside the field.
 */
export function dealAlarm(id: number, input: DealInput): Promise<AlarmDetail> {
  return typedApi.post('/v2/warn/deal/{uid}', { path: { uid: id }, body: input });
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
