import { describe, expect, it } from 'vitest';
import { applyFilterChange } from './use-list-filters';

describe('applyFilterChange', () => {
  it('sets and removes keys and returns to page 1 unless paging', () => {
    const current = new URLSearchParams('status=1&page=3&tab=list');
    const next = applyFilterChange(current, { status: undefined, priority: 4 });
    expect(next.toString()).toBe('tab=list&priority=4');
    expect(current.get('page')).toBe('3');
    expect(applyFilterChange(current, { page: 2, pageSize: 50 }).toString()).toBe('status=1&page=2&tab=list&pageSize=50');
    expect(applyFilterChange(current, { name: '' }).has('name')).toBe(false);
  });
});
