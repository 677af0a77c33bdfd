import { DEFAULT_FILTERS, dayStart, parseFilters, toListQuery } from './alarms';

describe('alarm filters', () => {
  it('leaves "all" out of the query and pages by default', () => {
    expect(toListQuery(DEFAULT_FILTERS)).toEqual({ page: 1, pageSize: 10 });
  });

  it('maps every filter of SPEC.md section 4 to the list call', () => {
    const query = toListQuery({
      dealStatus: 0,
      alarmStatus: 1,
      level: 0,
      type: 2,
      deviceType: 'inverter',
      stationId: 12,
      from: '2026-03-01',
      to: '2026-03-31',
      page: 3,
      pageSize: 20,
    });
    expect(query).toEqual({
      dealStatus: 0,
      alarmStatus: 1,
      level: 0,
      type: 2,
      deviceType: 'inverter',
      stationId: 12,
      from: new Date(2026, 2, 1).toISOString(),
      // "to" is exclusive: the start of the day after the last one chosen.
      to: new Date(2026, 3, 1).toISOString(),
      page: 3,
      pageSize: 20,
    });
  });

  it('keeps the server-side order of the address in the list and export queries', () => {
    const sorted = parseFilters(new URLSearchParams('sort=duration&order=asc&level=2'));
    expect(toListQuery(sorted)).toEqual({ level: 2, sort: 'duration', order: 'asc', page: 1, pageSize: 10 });
    expect(toListQuery(sorted, false)).toEqual({ level: 2, sort: 'duration', order: 'asc' });
    expect(toListQuery(parseFilters(new URLSearchParams('sort=time')), false)).toEqual({ sort: 'time', order: 'desc' });
    // a column the server does not sort by is dropped, and its order with it
    expect(toListQuery(parseFilters(new URLSearchParams('sort=station&order=asc')), false)).toEqual({});
  });

  it('sends processed, recovered and fault as they are', () => {
    expect(toListQuery({ ...DEFAULT_FILTERS, dealStatus: 1, alarmStatus: 2, level: 2 })).toMatchObject({
      dealStatus: 1,
      alarmStatus: 2,
      level: 2,
    });
  });

  it('leaves paging out of the export', () => {
    expect(toListQuery({ ...DEFAULT_FILTERS, dealStatus: 0, page: 4 }, false)).toEqual({ dealStatus: 0 });
  });

  it('reads the filters back from the address, unknown values meaning "all"', () => {
    const params = new URLSearchParams(
      'dealStatus=1&alarmStatus=2&level=0&type=1&deviceType=collector&stationId=5&from=2026-01-02&to=2026-01-03&page=2&pageSize=50',
    );
    expect(parseFilters(params)).toEqual({
      dealStatus: 1,
      alarmStatus: 2,
      level: 0,
      type: 1,
      deviceType: 'collector',
      stationId: 5,
      from: '2026-01-02',
      to: '2026-01-03',
      page: 2,
      pageSize: 50,
    });
    expect(
      parseFilters(new URLSearchParams('dealStatus=7&alarmStatus=x&level=9&type=0&deviceType=toaster&stationId=-1&from=yesterday&page=0&pageSize=900')),
    ).toEqual({ ...DEFAULT_FILTERS, level: undefined, type: undefined, deviceType: undefined, stationId: undefined, from: undefined, to: undefined });
  });

  it('round-trips: what the address holds is what the server is asked', () => {
    const params = new URLSearchParams('dealStatus=0&level=2');
    expect(toListQuery(parseFilters(params))).toEqual({ dealStatus: 0, level: 2, page: 1, pageSize: 10 });
  });

  it('starts a day at local midnight', () => {
    expect(new Date(dayStart('2026-07-04')).getHours()).toBe(0);
    expect(new Date(dayStart('2026-07-04')).getDate()).toBe(4);
  });
});
