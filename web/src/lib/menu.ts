import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from './api-typed';

/**
 * A menu entry as the server sends it (POST /api/user/menu), already filtered by the user's role.
 * meta's fields stay optional: the side menu reads each with a default, and the shell's tests
 * build entries without them.
 */
export type ServerMenuItem = Omit<Schemas['MenuItem'], 'meta' | 'children'> & {
  meta: Partial<Schemas['MenuMeta']>;
  children?: ServerMenuItem[];
};

export async function getServerMenu(): Promise<ServerMenuItem[]> {
  const data: ServerMenuItem[] | null = await typedApi.post('/api/user/menu');
  return Array.isArray(data) ? data : [];
}

export const serverMenuQuery = queryOptions({
  queryKey: ['menu', 'server'],
  queryFn: getServerMenu,
  staleTime: Infinity,
});

export function useServerMenu(enabled: boolean) {
  return useQuery({ ...serverMenuQuery, enabled });
}

/** Joins a child's path onto its parent's the way the server nests them. */
function joinPath(parent: string, child: string): string {
  if (child.startsWith('/') || /^https?:\/\//.test(child)) {
    return child;
  }
  return `${parent.replace(/\/$/, '')}/${child}`;
}

/** Every entry of the tree with its full path, parents before children. */
export function flattenServerMenu(items: ServerMenuItem[], parentPath = ''): ServerMenuItem[] {
  return items.flatMap((item) => {
    const path = joinPath(parentPath, item.path);
    return [{ ...item, path }, ...flattenServerMenu(item.children ?? [], path)];
  });
}
