import { formatDate, formatDateTime, toDate } from './format';

describe('format', () => {
  it('reads 10-digit timestamps as seconds and others as milliseconds', () => {
    const ms = new Date(2024, 4, 6, 7, 8, 9).getTime();
    expect(toDate(Math.floor(ms / 1000))?.getTime()).toBe(ms);
    expect(toDate(String(Math.floor(ms / 1000)))?.getTime()).toBe(ms);
    expect(toDate(ms)?.getTime()).toBe(ms);
  });

  it('formats yyyy-MM-dd HH:mm:ss and yyyy-MM-dd', () => {
    const date = new Date(2024, 0, 2, 3, 4, 5);
    expect(formatDateTime(date)).toBe('2024-01-02 03:04:05');
    expect(formatDate(date)).toBe('2024-01-02');
  });

  it('parses RFC 3339 strings', () => {
    expect(toDate('2024-03-01T00:00:00Z')?.toISOString()).toBe('2024-03-01T00:00:00.000Z');
  });

  it('returns "" for nothing usable', () => {
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
