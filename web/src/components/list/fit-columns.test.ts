import { describe, expect, it } from 'vitest';
import { type FitColumn, fitColumns } from './fit-columns';

type Row = Record<string, unknown>;
const columns: FitColumn<Row>[] = [
  { title: 'time', dataIndex: 'time', width: 160, fixed: 'left' },
  { title: 'name', dataIndex: 'name', width: 200 },
  { title: 'type', dataIndex: 'type', width: 120, optional: 1 },
  { title: 'sn', dataIndex: 'sn', width: 170, optional: 2 },
  { title: 'actions', dataIndex: 'actions', width: 100, fixed: 'right' },
];

describe('fitColumns', () => {
  it('keeps every column when they fit, without a scroll width or sticky columns', () => {
    const fit = fitColumns(columns, 800, false);
    expect(fit.shown.map((column) => column.dataIndex)).toEqual(['time', 'name', 'type', 'sn', 'actions']);
    expect(fit.dropped).toEqual([]);
    expect(fit.fits).toBe(true);
    expect(fit.shown.some((column) => column.fixed)).toBe(false);
  });

  it('drops optional columns, lowest first, counting the details toggle', () => {
    // all five need 750; without type (optional 1) 678 with the details toggle
    const one = fitColumns(columns, 700, false);
    expect(one.dropped.map((column) => column.dataIndex)).toEqual(['type']);
    expect(one.width).toBe(160 + 200 + 170 + 100 + 48);
    expect(one.fits).toBe(true);
    const two = fitColumns(columns, 600, false);
    expect(two.dropped.map((column) => column.dataIndex)).toEqual(['type', 'sn']);
    expect(two.width).toBe(160 + 200 + 100 + 48);
  });

  it('scrolls only when the required columns alone are too wide', () => {
    const fit = fitColumns(columns, 400, false);
    expect(fit.dropped).toHaveLength(2);
    expect(fit.fits).toBe(false);
    expect(fit.shown.find((column) => column.dataIndex === 'time')?.fixed).toBe('left');
  });

  it('drops nothing before the box is measured', () => {
    expect(fitColumns(columns, 0, false).dropped).toEqual([]);
  });
});
