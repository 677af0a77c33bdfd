import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from './api-typed';
import { queryClient } from './query-client';
import { clearSessionStorage, setToken, useToken } from './storage';
import { getLogoutUrl } from './system';

export type Role = 'admin' | 'user';
export type StationAuthority = 'all' | 'own' | 'authorized';

/** The signed-in user as GET /v2/user/info returns it. */
export type UserInfo = Schemas['UserInfo'];

/** The body of POST /v2/login. */
export type Credentials = Schemas['LoginRequest'];

export type LoginResult = Schemas['LoginResponse'];

export async function getUserInfo(): Promise<UserInfo> {
  return typedApi.get('/v2/user/info');
}

export const userQuery = queryOptions({
  queryKey: ['auth', 'user'],
  queryFn: getUserInfo,
  staleTime: Infinity,
});

/** The signed-in user's profile; idle while there is no token. */
export function useUser() {
  const token = useToken();
  return useQuery({ ...userQuery, enabled: Boolean(token) });
}

/** The signed-in user's role, from the server's user record; undefined until it is known. */
export function useRole(): Role | undefined {
  const role = useUser().data?.role;
  return role === 'admin' || role === 'user' ? role : undefined;
}

/**
 * Signs in. Every failure (wrong credentials, empty fields, too many attempts) is left to the
 * login page: a 401 here is a failed sign-in, not an expired session.
 */
export async function login(credentials: Credentials): Promise<LoginResult> {
  const result = await typedApi.post('/v2/login', { body: credentials }, { handleErrors: false });
  setToken(result.token);
  queryClient.removeQueries();
  return result;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

/**
 * Signs out on the server, then forgets the profile, the token and the server menu (all cached
 * server state). Resolves with the external logout page to open, or "" for the login page.
 * A server that cannot be reached does not keep the user signed in.
 */
export async function logout(): Promise<string> {
  // The logout page is asked for first, while the session still exists.
  const logoutUrl = await getLogoutUrl().catch(() => '');
  await typedApi.post('/v2/logout', undefined, { handleErrors: false }).catch(() => null);
  clearSessionStorage();
  queryClient.removeQueries();
  return logoutUrl;
}
