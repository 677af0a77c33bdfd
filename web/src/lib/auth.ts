import { onlineManager, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { type Schemas, typedApi } from './api-typed';
import { queryClient } from './query-client';
import { clearSessionStorage, setToken, STORAGE_KEYS, useToken } from './storage';
import { getLogoutUrl } from './system';

export type Role = 'admin' | 'user';
export type StationAuthority = 'all' | 'own' | 'authorized';

/** The signed-in user as GET /v2/user/info returns it. */
export type UserInfo = Schemas['UserInfo'];

/** The body of POST /v2/login. */
export type Credentials = Schemas['LoginRequest'];

export type LoginResult = Schemas['LoginResponse'];

/** The profile last fetched in this browser, kept until sign-out for starts without the network. */
export function keptProfile(): UserInfo | undefined {
  try {
    const kept = window.localStorage.getItem(STORAGE_KEYS.profile);
    return kept ? (JSON.parse(kept) as UserInfo) : undefined;
  } catch {
    return undefined;
  }
}

// How soon a profile answered from the kept copy (no response from the server) is asked for again.
const PROFILE_RETRY_MS = 15_000;

/**
 * The signed-in user's profile. When the server gives no response at all (no network, though
 * the browser may not know it yet), the profile kept from the last visit stands in, so the
 * console opens offline still signed in; the server is asked again shortly.
 */
export async function getUserInfo(): Promise<UserInfo> {
  let info: UserInfo;
  try {
    info = await typedApi.get('/v2/user/info');
  } catch (error) {
    const kept = keptProfile();
    if (!(error instanceof ApiError) || error.code !== 0 || !kept) {
      throw error;
    }
    window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: userQuery.queryKey }), PROFILE_RETRY_MS);
    return kept;
  }
  try {
    window.localStorage.setItem(STORAGE_KEYS.profile, JSON.stringify(info));
  } catch {
    // storage full or denied: only an offline start misses it
  }
  return info;
}

export const userQuery = queryOptions({
  queryKey: ['auth', 'user'],
  queryFn: getUserInfo,
  staleTime: Infinity,
  // Offline, the profile's request waits for the network; the shell is drawn meanwhile with
  // the profile kept from the last visit (the server's answer replaces it when it comes).
  placeholderData: () => (onlineManager.isOnline() ? undefined : keptProfile()),
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
