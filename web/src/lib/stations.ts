import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Schemas, typedApi } from './api-typed';

/** A station or sub-station as pickers list it (GET /v2/site/simplelist). */
export type StationOption = Schemas['SimpleItem'];

export type StationNode = StationOption & { children: StationNode[] };

export const stationOptionsQuery = queryOptions({
  queryKey: ['site', 'simplelist'],
  queryFn: ({ signal }) => typedApi.get('/v2/site/simplelist', undefined, { signal }),
  staleTime: 60_000,
});

/** Every station the user may see, for pickers (several screens share it). */
export function useStationOptions() {
  return useQuery(stationOptionsQuery);
}

/** Each visible station's IANA zone by id: the zone its devices' times are shown in. */
export function useStationZones(): Map<number, string> {
  const options = useStationOptions();
  return useMemo(() => new Map((options.data ?? []).map((option) => [option.id, option.timezone])), [options.data]);
}

/** Top-level stations with their sub-stations beneath; a sub-station whose parent is hidden is a root. */
export function stationTree(options: readonly StationOption[]): StationNode[] {
  const nodes = new Map<number, StationNode>();
  for (const option of options) {
    nodes.set(option.id, { ...option, children: [] });
  }
  const roots: StationNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) {
      parent.children.push(node);
    } else {
      roots.push(node);
    }
  }
  return roots;
}
