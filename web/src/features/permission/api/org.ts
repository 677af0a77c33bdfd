import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { Page } from '@/components/list/list-table';
import { api, type QueryValue } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { queryClient } from '@/lib/query-client';

/** Every organisation query's key starts with this; every organisation write refreshes it. */
export const ORG_KEY = 'org';

export type Role = 'admin' | 'user';
export type StationAuthority = 'all' | 'own' | 'authorized';
export const ROLES: readonly Role[] = ['admin', 'user'];
export const AUTHORITIES: readonly StationAuthority[] = ['all', 'own', 'authorized'];

/** A department of GET /v2/org/list. */
export interface Dept {
  id: number;
  parentId: number;
  name: string;
  members: number;
  /** Top-level stations granted to the department. */
  stationIds: number[];
  /** How many stations the department created. */
  createdStations: number;
  children: Dept[];
}

export interface RoleCount {
  key: Role;
  members: number;
}

/** A user of GET /v2/org/user/list. */
export interface OrgUser {
  uid: number;
  username: string;
  name: string;
  email: string;
  phone: string;
  role: Role;
  stationAuthority: StationAuthority;
  /** 1 active, 0 disabled */
  status: number;
  deptId: number;
  deptName: string;
  jobName: string;
  avatar: string;
  createdAt: string;
}

export interface UserFilters {
  keyword?: string;
  deptId?: number;
  role?: Role;
  status?: 0 | 1;
  page: number;
  pageSize: number;
}

export interface DeptInput {
  name: string;
  stationIds: number[];
}

export interface UserInput {
  username: string;
  password: string;
  name: string;
  deptId: number;
  email: string;
  phone: string;
  role: Role;
  stationAuthority: StationAuthority;
  jobName: string;
}

export type UserEdit = Omit<UserInput, 'username' | 'password'>;

export function useDepts() {
  return useQuery({
    queryKey: [ORG_KEY, 'depts'],
    queryFn: ({ signal }) => api.get<Dept[]>('/v2/org/list', { signal }),
  });
}

export function useRoles() {
  return useQuery({
    queryKey: [ORG_KEY, 'roles'],
    queryFn: ({ signal }) => api.get<RoleCount[]>('/v2/org/role/list', { signal }),
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
    queryFn: ({ signal }) => api.get<Page<OrgUser>>('/v2/org/user/list', { signal, query: query(filters) }),
    placeholderData: keepPreviousData,
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: [ORG_KEY] });

/** Every organisation write: one call, then the organisation's lists are read again. */
export function useOrgWrite<V>(call: (vars: V) => Promise<unknown>) {
  return useMutation({ mutationFn: call, onSuccess: refresh });
}

export const orgCalls = {
  addDept: (input: DeptInput & { parentId?: number }) =>
    input.parentId
      ? api.post<{ id: number }>('/v2/org/dept/addchild', input)
      : api.post<{ id: number }>('/v2/org/dept/add', { name: input.name, stationIds: input.stationIds }),
  editDept: ({ id, ...input }: DeptInput & { id: number }) => api.post(`/v2/org/dept/edit/${id}`, input),
  deleteDept: (id: number) => api.post(`/v2/org/dept/delete/${id}`),
  addUser: (input: UserInput) => api.post<{ id: number }>('/v2/org/user/add', input),
  editUser: ({ uid, ...input }: UserEdit & { uid: number }) => api.post(`/v2/org/user/edit/${uid}`, input),
  resetPassword: ({ uid, password }: { uid: number; password: string }) =>
    api.post(`/v2/org/user/resetpwd/${uid}`, { password }),
  disable: (uid: number) => api.post(`/v2/org/user/validdisable/${uid}`),
  enable: (uid: number) => api.post(`/v2/org/user/validenable/${uid}`),
  deleteUser: (uid: number) => api.post(`/v2/org/user/delete/${uid}`),
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
export interface LogEntry {
  id: number;
  time: string;
  userId: number;
  username: string;
  action: string;
  object: string;
  detail: string;
  method: string;
  route: string;
  status: number;
  address: string;
  before: string;
  after: string;
}

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
    queryFn: ({ signal }) => api.get<Page<LogEntry>>('/v2/syslog/list', { signal, query: query(filters) }),
    placeholderData: keepPreviousData,
  });
}

export function exportSysLog(filters: LogFilters, format: 'csv' | 'xlsx'): Promise<string> {
  const { page: _page, pageSize: _size, ...rest } = filters;
  return downloadFile('/v2/syslog/export', { ...query(rest), format }, `system-log.${format}`);
}

/** An enterprise certification record. */
export interface Certification {
  id: number;
  userId: number;
  username: string;
  accountType: string;
  legalPerson: string;
  legalCertType: string;
  legalCertNumber: string;
  enterpriseName: string;
  enterpriseCertType: string;
  organizationCode: string;
  status: 'auditing' | 'passed' | 'refused' | 'withdrawn';
  reason: string;
  createdAt: string;
  decidedAt: string | null;
}

export function useOrgCerts(status?: string) {
  return useQuery({
    queryKey: [ORG_KEY, 'certs', status ?? ''],
    queryFn: ({ signal }) =>
      api.get<Certification[]>('/v2/org/certification/list', { signal, query: { status: status || undefined } }),
  });
}

export const certCalls = {
  pass: (id: number) => api.post(`/v2/org/certification/pass/${id}`),
  refuse: ({ id, reason }: { id: number; reason: string }) => api.post(`/v2/org/certification/refuse/${id}`, { reason }),
};
