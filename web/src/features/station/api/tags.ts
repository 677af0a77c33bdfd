import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

export type TagWithCount = Schemas['TagWithCount'];

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
  queryFn: ({ signal }) => typedApi.get('/v2/site/tag/list', undefined, { signal }),
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
      id
        ? typedApi.post('/v2/site/tag/edit/{id}', { path: { id }, body: { name, color } })
        : typedApi.post('/v2/site/tag/add', { body: { name, color } }),
    onSuccess: refresh,
  });
}

export function useDeleteTag() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/site/tag/delete/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}
