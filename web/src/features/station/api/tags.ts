import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import type { Tag } from './types';

export interface TagWithCount extends Tag {
  stations: number;
}

/** The colours a tag may have: Arco palette names (internal/station/tags.go). */
export const TAG_COLORS = [
  'red',
  'orangered',
  'orange',
  'gold',
  'lime',
  'green',
  'cyan',
  'blue',
  'arcoblue',
  'purple',
  'pinkpurple',
  'magenta',
  'gray',
] as const;

export const tagListQuery = queryOptions({
  queryKey: ['site', 'tag', 'list'],
  queryFn: ({ signal }) => api.get<TagWithCount[]>('/v2/site/tag/list', { signal }),
  staleTime: 60_000,
});

export function useTags() {
  return useQuery(tagListQuery);
}

function refresh() {
  void queryClient.invalidateQueries({ queryKey: ['site'] });
}

export function useSaveTag() {
  return useMutation({
    mutationFn: ({ id, name, color }: { id?: number; name: string; color: string }) =>
      id ? api.post<Tag>(`/v2/site/tag/edit/${id}`, { name, color }) : api.post<Tag>('/v2/site/tag/add', { name, color }),
    onSuccess: refresh,
  });
}

export function useDeleteTag() {
  return useMutation({
    mutationFn: (id: number) => api.post<null>(`/v2/site/tag/delete/${id}`),
    onSuccess: refresh,
  });
}
