import { describe, expect, it } from 'vitest';
import { parseListSort, sortChange, sortQuery, sortable } from './list-sort';

const keys = ['todayKwh', 'totalKwh'] as const;

describe('list sort', () => {
  it('reads only the list’s own columns from the address, largest first by default', () => {
    expect(parseListSort(new URLSearchParams('sort=todayKwh'), keys)).toEqual({ sort: 'todayKwh', order: 'desc' });
    expect(parseListSort(new URLSearchParams('sort=totalKwh&order=asc'), keys)).toEqual({ sort: 'totalKwh', order: 'asc' });
    expect(parseListSort(new URLSearchParams('sort=name&order=asc'), keys)).toEqual({});
    expect(parseListSort(new URLSearchParams('order=asc'), keys)).toEqual({});
  });

  it('sends a sort with its order, and nothing for the usual order', () => {
    expect(sortQuery({ sort: 'todayKwh' })).toEqual({ sort: 'todayKwh', order: 'desc' });
    expect(sortQuery({ order: 'asc' })).toEqual({});
  });

  it('lights the sorted column only, in the address’s direction', () => {
    const column = { title: 'Today', dataIndex: 'todayKwh' };
    expect(sortable(column, 'todayKwh', { sort: 'todayKwh', order: 'asc' })).toMatchObject({ key: 'todayKwh', sorter: true, sortOrder: 'ascend' });
    expect(sortable(column, 'todayKwh', { sort: 'totalKwh', order: 'asc' }).sortOrder).toBeUndefined();
    const optional = { ...column, optional: 3 };
    expect(sortable(optional, 'todayKwh', { sort: 'todayKwh' }).optional).toBeUndefined();
    expect(sortable(optional, 'todayKwh', {}).optional).toBe(3);
  });

  it('turns a header click into the address change', () => {
    expect(sortChange({ field: 'todayKwh', direction: 'descend' })).toEqual({ sort: 'todayKwh', order: 'desc' });
    expect(sortChange([{ field: 'totalKwh', direction: 'ascend' }])).toEqual({ sort: 'totalKwh', order: 'asc' });
    expect(sortChange({ field: 'todayKwh' })).toEqual({ sort: undefined, order: undefined });
  });
});
