import type { SorterInfo } from '@arco-design/web-react/es/Table/interface';
import type { FitColumn } from './fit-columns';

/** The direction of a list sorted on the server (sort=<column>&order=asc|desc). */
export type SortOrder = 'asc' | 'desc';

/** A list's order as the address holds it: a column of the list's whitelist and its direction. */
export interface ListSort {
  sort?: string;
  order?: SortOrder;
}

/** Reads sort and order from the address, keeping only the list's own columns. */
export function parseListSort(params: URLSearchParams, keys: readonly string[]): ListSort {
  const sort = params.get('sort') ?? '';
  if (!keys.includes(sort)) {
    return {};
  }
  return { sort, order: params.get('order') === 'asc' ? 'asc' : 'desc' };
}

/** The query a sorted list sends (nothing for the list's usual order). */
export function sortQuery({ sort, order }: ListSort): ListSort {
  return sort ? { sort, order: order ?? 'desc' } : {};
}

/**
 * Makes a column sortable on the server under key: a click ranks the largest first, a
 * second the smallest first, a third returns to the list's usual order. The active column stays
 * in the table however narrow it is.
 */
export function sortable<T>(column: FitColumn<T>, key: string, current: ListSort): FitColumn<T> {
  const active = current.sort === key;
  return {
    ...column,
    // the column a list is ranked by never steps aside for want of width
    optional: active ? undefined : column.optional,
    key,
    sorter: true,
    sortDirections: ['descend', 'ascend'],
    sortOrder: active ? (current.order === 'asc' ? 'ascend' : 'descend') : undefined,
  };
}

/** The address change a table's sorter makes (page 1 again, the usual order when cleared). */
export function sortChange(sorter: SorterInfo | SorterInfo[]): { sort: string | undefined; order: SortOrder | undefined } {
  const info = Array.isArray(sorter) ? sorter[0] : sorter;
  const key = info?.direction ? String(info.field ?? '') : '';
  if (!info || !key) {
    return { sort: undefined, order: undefined };
  }
  return { sort: key, order: info.direction === 'ascend' ? 'asc' : 'desc' };
}
