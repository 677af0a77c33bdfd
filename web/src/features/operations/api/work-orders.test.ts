import { describe, expect, it } from 'vitest';
import { liveTimeout, parseWorkOrderFilters, toWorkOrderQuery, type WorkOrder } from './work-orders';

describe('work-order filters', () => {
  it('reads the address and drops unknown values', () => {
    const f = parseWorkOrderFilters(new URLSearchParams('status=3&priority=9&mine=copied&timeoutStatus=1&q=fence&page=2&pageSize=500'));
    expect(f).toMatchObject({ status: 3, priority: undefined, mine: 'copied', timeoutStatus: 1, q: 'fence', page: 2, pageSize: 10 });
    expect(parseWorkOrderFilters(new URLSearchParams('mine=all&timeoutStatus=0')).mine).toBeUndefined();
    expect(parseWorkOrderFilters(new URLSearchParams('timeoutStatus=0')).timeoutStatus).toBe(0);
  });

  it('leaves "all" and paging out of the export query', () => {
    const q = toWorkOrderQuery(parseWorkOrderFilters(new URLSearchParams('status=2&page=3')), false);
    expect(q).toEqual({ status: 2 });
  });

  it('keeps the server-side order of the address in the list and export queries', () => {
    const f = parseWorkOrderFilters(new URLSearchParams('sort=due&order=asc&page=2'));
    expect(toWorkOrderQuery(f)).toMatchObject({ sort: 'due', order: 'asc', page: 2 });
    expect(toWorkOrderQuery(f, false)).toEqual({ sort: 'due', order: 'asc' });
    expect(toWorkOrderQuery(parseWorkOrderFilters(new URLSearchParams('sort=priority')), false)).toEqual({ sort: 'priority', order: 'desc' });
    // a column the server does not sort by is dropped, and its order with it
    expect(toWorkOrderQuery(parseWorkOrderFilters(new URLSearchParams('sort=title&order=asc')), false)).toEqual({});
  });
});

/** A work order as the list sends it, with the fields a test sets. */
function workOrder(over: Partial<WorkOrder> = {}): WorkOrder {
  return {
    id: 1,
    number: 'WO-20260301-1',
    title: 'Inverter fault',
    description: '',
    status: 1,
    processStatus: 'pending_accept',
    priority: 2,
    stationId: 1,
    stationName: 'Station A',
    timezone: 'Asia/Shanghai',
    alarmId: 0,
    alarmStatus: 0,
    alarmOccurredAt: null,
    alarmRecoveredAt: null,
    deviceId: 0,
    deviceName: '',
    deviceSn: '',
    submitter: 'admin',
    submitterId: 1,
    submitTime: '2026-03-01T08:00:00Z',
    assigneeUserId: 2,
    assigneeDeptId: 0,
    assigneeDept: '',
    processor: 'operator',
    plannedStart: '2026-03-01T08:00:00Z',
    plannedEnd: '2026-03-01T12:00:00Z',
    plannedHours: 4,
    actualStart: null,
    actualEnd: null,
    actualHours: 0,
    deviationPercent: 0,
    timeoutStatus: 0,
    overtimeHours: 0,
    updateTime: '2026-03-01T08:00:00Z',
    ...over,
  };
}

describe('liveTimeout', () => {
  const order = workOrder({ status: 2, plannedEnd: '2026-03-01T12:00:00Z', timeoutStatus: 0, overtimeHours: 0 });
  it('turns an open order late as the clock passes its planned end', () => {
    expect(liveTimeout(order, Date.parse('2026-03-01T11:59:00Z'))).toEqual({ timeout: 0, overtimeHours: 0 });
    expect(liveTimeout(order, Date.parse('2026-03-01T13:30:00Z'))).toEqual({ timeout: 1, overtimeHours: 1.5 });
  });
  it('keeps the server figures of a finished order', () => {
    const done = { ...order, status: 4, timeoutStatus: 1, overtimeHours: 2 };
    expect(liveTimeout(done, Date.parse('2026-09-01T00:00:00Z'))).toEqual({ timeout: 1, overtimeHours: 2 });
  });
});
