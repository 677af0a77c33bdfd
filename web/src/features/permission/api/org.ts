import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { QueryValue } from '@/lib/api-client';
import { type ApiQuery, type Schemas, typedApi } from '@/lib/api-typed';
import { downloadFile } from '@/lib/download';
import { queryClient } from '@/lib/query-client';

/** Every organisation query's key starts with this; every organisation write refreshes it. */
export const ORG_KEY = 'org';

export type Role = 'admin' | 'user';
export type StationAuthority = 'all' | 'own' | 'authorized';
export const ROLES: readonly Role[] = ['admin', 'user'];
export const AUTHORITIES: readonly StationAuthority[] = ['all', 'own', 'authorized'];

/** A department of GET /v2/org/list. */
export type Dept = Schemas['Dept'];

export type RoleCount = Schemas['Role'];

/** A user of GET /v2/org/user/list. */
export type OrgUser = Schemas['UserRow'];

export interface UserFilters {
  keyword?: string;
  deptId?: number;
  role?: Role;
  status?: 0 | 1;
  page: number;
  pageSize: number;
}

export type DeptInput = Schemas['DeptInput'];

export type UserInput = Schemas['UserInput'];

export type UserEdit = Schemas['UserEdit'];

export function useDepts() {
  return useQuery({
    queryKey: [ORG_KEY, 'depts'],
    queryFn: ({ signal }) => typedApi.get('/v2/org/list', undefined, { signal }),
  });
}

export function useRoles() {
  return useQuery({
    queryKey: [ORG_KEY, 'roles'],
    queryFn: ({ signal }) => typedApi.get('/v2/org/role/list', undefined, { signal }),
  });
}

function query(filters: object): Record<string, QueryValue> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    QueryValue
  >;
}

export function useUsers(filters: UserFilters) {
  return useQuery({
    queryKey: [ORG_KEY, 'users', filters],
    queryFn: ({ signal }) => typedApi.get('/v2/org/user/list', { query: query(filters) }, { signal }),
    placeholderData: keepPreviousData,
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: [ORG_KEY] });

/** Every organisation write: one call, then the organisation's lists are read again. */
export function useOrgWrite<V, R>(call: (vars: V) => Promise<R>) {
  return useMutation({ mutationFn: call, onSuccess: refresh });
}

export const orgCalls = {
  addDept: (input: DeptInput & { parentId?: number }) =>
    input.parentId
      ? typedApi.post('/v2/org/dept/addchild', { body: { ...input, parentId: input.parentId } })
      : typedApi.post('/v2/org/dept/add', { body: { name: input.name, stationIds: input.stationIds } }),
  editDept: ({ id, ...input }: DeptInput & { id: number }) => typedApi.post('/v2/org/dept/edit/{uid}', { path: { uid: id }, body: input }),
  deleteDept: (id: number) => typedApi.post('/v2/org/dept/delete/{uid}', { path: { uid: id } }),
  addUser: (input: UserInput) => typedApi.post('/v2/org/user/add', { body: input }),
  editUser: ({ uid, ...input }: UserEdit & { uid: number }) => typedApi.post('/v2/org/user/edit/{uid}', { path: { uid }, body: input }),
  resetPassword: ({ uid, password }: { uid: number; password: string }) =>
    typedApi.post('/v2/org/user/resetpwd/{uid}', { path: { uid }, body: { password } }),
  disable: (uid: number) => typedApi.post('/v2/org/user/validdisable/{uid}', { path: { uid } }),
  enable: (uid: number) => typedApi.post('/v2/org/user/validenable/{uid}', { path: { uid } }),
  deleteUser: (uid: number) => typedApi.post('/v2/org/user/delete/{uid}', { path: { uid } }),
};

/** Departments as a flat list with their depth, in tree order (for pickers). */
export function flattenDepts(tree: readonly Dept[], depth = 0, out: { dept: Dept; depth: number }[] = []) {
  for (const dept of tree) {
    out.push({ dept, depth });
    flattenDepts(dept.children, depth + 1, out);
  }
  return out;
}

/** A system-log entry of GET /v2/syslog/list. */
export type LogEntry = Schemas['Entry'];

export interface LogFilters {
  user?: string;
  object?: string;
  action?: string;
  from?: string;
  to?: string;
  failed?: 1;
  page: number;
  pageSize: number;
}

export function useSysLog(filters: LogFilters) {
  return useQuery({
    queryKey: [ORG_KEY, 'syslog', filters],
    queryFn: ({ signal }) => typedApi.get('/v2/syslog/list', { query: query(filters) }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function exportSysLog(filters: LogFilters, format: 'csv' | 'xlsx'): Promise<string> {
  const { page: _page, pageSize: _size, ...rest } = filters;
  return downloadFile('/v2/syslog/export', { ...query(rest), format }, `system-log.${format}`);
}

/** An enterprise certification record. */
export type Certification = Schemas['Certification'];

type CertStatus = ApiQuery<'/v2/org/certification/list'>['status'];

export function useOrgCerts(status?: string) {
  return useQuery({
    queryKey: [ORG_KEY, 'certs', status ?? ''],
    queryFn: ({ signal }) =>
      // a status outside the list's enum is refused by name (400)
      typedApi.get('/v2/org/certification/list', { query: { status: (status || undefined) as CertStatus } }, { signal }),
  });
}

export const certCalls = {
  pass: (id: number) => typedApi.post('/v2/org/certification/pass/{id}', { path: { id } }),
  refuse: ({ id, reason }: { id: number; reason: string }) => typedApi.post('/v2/org/certification/refuse/{id}', { path: { id }, body: { reason } }),
};
