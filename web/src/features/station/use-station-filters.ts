import { useCallback, useMemo } from 'react';
import { parseListSort } from '@/components/list/list-sort';
import { useQueryParams } from '@/lib/use-query-params';
import { STATION_SORTS, type StationFilters } from './api/stations';

export const DEFAULT_PAGE_SIZE = 10;
export type StationView = 'card' | 'table';

function numberParam(params: URLSearchParams, key: string): number | undefined {
  const raw = params.get(key);
  if (raw === null || raw === '') {
    return undefined;
  }
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads the station list's filters, page and view from the address (so Back keeps them). */
export function parseStationFilters(params: URLSearchParams): StationFilters & { view: StationView } {
  const tagIds = (params.get('tagIds') ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
  return {
    name: params.get('name') ?? undefined,
    communicationStatus: numberParam(params, 'communicationStatus'),
    alarmStatus: numberParam(params, 'alarmStatus'),
    stationType: params.get('stationType') ?? undefined,
    systemType: params.get('systemType') ?? undefined,
    tagIds,
    ...parseListSort(params, STATION_SORTS),
    page: Math.max(1, numberParam(params, 'page') ?? 1),
    pageSize: numberParam(params, 'pageSize') ?? DEFAULT_PAGE_SIZE,
    view: params.get('view') === 'table' ? 'table' : 'card',
  };
}

/** The filters in the address, and a setter that starts again at page 1 when a filter changes. */
export function useStationFilters() {
  const [params, setParams] = useQueryParams();
  const filters = useMemo(() => parseStationFilters(params), [params]);
  const update = useCallback(
    (change: Partial<StationFilters & { view: StationView }>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(change)) {
            const text = Array.isArray(value) ? value.join(',') : value === undefined || value === null ? '' : String(value);
            if (text === '') {
              next.delete(key);
            } else {
              next.set(key, text);
            }
          }
          if (!('page' in change)) {
            next.delete('page');
          }
          return next;
        },
      );
    },
    [setParams],
  );
  return { filters, update };
}
