import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** A menu entry as the server sends it, already filtered by the user's role. */
export interface ServerMenuItem {
  path: string;
  name: string;
  meta: {
    locale?: string;
    requiresAuth?: boolean;
    icon?: string;
    order?: number;
    roles?: string[];
    /** An entry that leaves the console (the real-time monitor). */
    external?: boolean;
  };
  children?: ServerMenuItem[];
}

export async function getServerMenu(): Promise<ServerMenuItem[]> {
  const data = await api.post<ServerMenuItem[] | null>('/api/user/menu');
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
