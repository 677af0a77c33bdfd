import { useCallback, useMemo } from 'react';
import { useQueryParams } from '@/lib/use-query-params';

/** A change to a list's filters: an empty, null or undefined value removes the key. */
export type FilterChange = Record<string, string | number | boolean | null | undefined>;

/** Applies a change to the address's query; any change but paging returns to page 1. */
export function applyFilterChange(current: URLSearchParams, change: FilterChange): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined || value === null || value === '') {
      next.delete(key);
    } else {
      next.set(key, String(value));
    }
  }
  if (!('page' in change)) {
    next.delete('page');
  }
  return next;
}

/**
 * A list's filters and page kept in the address (so Back and the tab bar return to the same
 * view): parse reads them, update changes some, reset clears the given keys.
 */
export function useListFilters<F>(parse: (params: URLSearchParams) => F, keys: readonly string[]) {
  const [params, setParams] = useQueryParams();
  const filters = useMemo(() => parse(params), [parse, params]);
  const update = useCallback((change: FilterChange) => setParams((current) => applyFilterChange(current, change)), [setParams]);
  const reset = useCallback(
    () =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        keys.forEach((key) => next.delete(key));
        return next;
      }),
    [keys, setParams],
  );
  return { params, setParams, filters, update, reset };
}
