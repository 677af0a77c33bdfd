import {
  formatChange,
  formatDate,
  formatDateTime,
  formatDateTimeIn,
  formatMonth,
  formatNumber,
  formatQuantity,
  formatTime,
  scaleQuantity,
  startOfDayIn,
  startOfWeek,
  toDate,
  todayIn,
  toRfc3339,
  WEEK_START,
} from './format';

describe('format (SPEC.md section 9)', () => {
  it('reads 10-digit timestamps as seconds and others as milliseconds', () => {
    const ms = new Date(2024, 4, 6, 7, 8, 9).getTime();
    expect(toDate(Math.floor(ms / 1000))?.getTime()).toBe(ms);
    expect(toDate(String(Math.floor(ms / 1000)))?.getTime()).toBe(ms);
    expect(toDate(ms)?.getTime()).toBe(ms);
    // 13 digits: milliseconds; 9 digits (1973): not 10 digits, so milliseconds too
    expect(toDate('1714979289000')?.getTime()).toBe(1714979289000);
    expect(toDate(123456789)?.getTime()).toBe(123456789);
  });

  it('formats yyyy-MM-dd HH:mm:ss by default and yyyy-MM-dd as the display date', () => {
    const date = new Date(2024, 0, 2, 3, 4, 5);
    expect(formatDateTime(date)).toBe('2024-01-02 03:04:05');
    expect(formatDate(date)).toBe('2024-01-02');
    expect(formatMonth(date)).toBe('2024-01');
    expect(formatTime(date)).toBe('03:04');
    expect(formatDateTime(Math.floor(date.getTime() / 1000))).toBe('2024-01-02 03:04:05');
  });

  it('starts weeks on Monday', () => {
    expect(WEEK_START).toBe(1);
    // Sunday 2024-06-09 belongs to the week that began on Monday 2024-06-03
    expect(formatDate(startOfWeek(new Date(2024, 5, 9, 15)))).toBe('2024-06-03');
    expect(formatDate(startOfWeek(new Date(2024, 5, 3, 0)))).toBe('2024-06-03');
    expect(formatDate(startOfWeek(new Date(2024, 5, 8, 23)))).toBe('2024-06-03');
    expect(startOfWeek(new Date(2024, 5, 5)).getDay()).toBe(1);
  });

  it('parses RFC 3339 strings and writes them for API parameters', () => {
    expect(toDate('2024-03-01T00:00:00Z')?.toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(toRfc3339(new Date(Date.UTC(2024, 2, 1, 6, 30)))).toBe('2024-03-01T06:30:00Z');
  });

  it('returns "" for nothing usable', () => {
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('shows units with values: kW, kWh, kWp, %, °C, kg', () => {
    expect(formatQuantity(12.5, 'kW')).toBe('12.5 kW');
    expect(formatQuantity(1234.567, 'kWh')).toBe('1,234.57 kWh');
    expect(formatQuantity(500, 'kWp')).toBe('500 kWp');
    expect(formatQuantity(87.25, '%', { digits: 1 })).toBe('87.3%');
    expect(formatQuantity(-6.8, '°C', { digits: 1 })).toBe('-6.8 °C');
    expect(formatQuantity(10.5, 'kg')).toBe('10.5 kg');
    expect(formatQuantity(undefined, 'kW')).toBe('-');
    expect(formatQuantity(Number.NaN, 'kW')).toBe('-');
  });

  it('moves large figures to larger units when asked', () => {
    expect(scaleQuantity(24_477_288, 'kWh')).toEqual({ value: 24.477288, unit: 'GWh' });
    expect(formatQuantity(21_135.8, 'kWh', { scale: true })).toBe('21.14 MWh');
    expect(formatQuantity(1758.1, 'kW', { scale: true })).toBe('1.76 MW');
    expect(formatQuantity(10_039.5, 'kg', { scale: true })).toBe('10.04 t');
    expect(formatQuantity(999, 'kWh', { scale: true })).toBe('999 kWh');
  });

  it('writes changes with their sign and numbers with grouping', () => {
    expect(formatChange(12.345)).toBe('+12.3%');
    expect(formatChange(-62.539)).toBe('-62.5%');
    expect(formatChange(0)).toBe('0%');
    expect(formatNumber(1234567.891, 1)).toBe('1,234,567.9');
  });

  it('reads an instant on a station\'s own clock', () => {
    const instant = Date.UTC(2024, 11, 31, 20, 0, 0);
    expect(formatDateTimeIn(instant, 'Asia/Shanghai')).toBe('2025-01-01 04:00:00');
    expect(formatDateTimeIn(instant, 'America/Los_Angeles')).toBe('2024-12-31 12:00:00');
    expect(todayIn('Asia/Tokyo', new Date(instant))).toBe('2025-01-01');
  });

  it('finds when a local date begins in a zone, across offset changes', () => {
    expect(startOfDayIn('2025-01-01', 'Asia/Shanghai').toISOString()).toBe('2024-12-31T16:00:00.000Z');
    expect(startOfDayIn('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDayIn('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDayIn('2026-11-01', 'America/Los_Angeles').toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(startOfDayIn('2026-11-02', 'America/Los_Angeles').toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(startOfDayIn('2026-06-15', 'Asia/Kolkata').toISOString()).toBe('2026-06-14T18:30:00.000Z');
  });
});
