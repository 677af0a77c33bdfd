import { useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { userQuery } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';

export type Profile = Schemas['ProfileInput'];

export type Security = Schemas['SecurityInput'];

export type PasswordChange = Schemas['ChangePasswordRequest'];

/** POST /v2/user/certification/submit: accountType enterprise or individual, legalCertType id_card,
 * passport or other, enterpriseCertType business_license, uscc or other. */
export type CertInput = Schemas['CertInput'];

export type CertRecord = Schemas['Certification'];

const refreshUser = () => queryClient.invalidateQueries({ queryKey: userQuery.queryKey });

export function useSaveProfile() {
  return useMutation({ mutationFn: (p: Profile) => typedApi.post('/v2/user/profile', { body: p }), onSuccess: refreshUser });
}

export function useSaveSecurity() {
  return useMutation({ mutationFn: (s: Security) => typedApi.post('/v2/user/security', { body: s }), onSuccess: refreshUser });
}

export function useChangePassword(uid: string | number) {
  return useMutation({ mutationFn: (p: PasswordChange) => typedApi.post('/v2/org/user/changepwd/{uid}', { path: { uid }, body: p }) });
}

export function useUploadAvatar() {
  return useMutation({
    mutationFn: (image: string) => typedApi.post('/v2/user/avatar', { body: { image } }),
    onSuccess: refreshUser,
  });
}

const CERTS = ['account', 'certs'];

export function useMyCerts() {
  return useQuery({
    queryKey: CERTS,
    queryFn: ({ signal }) => typedApi.get('/v2/user/certification/list', undefined, { signal }),
  });
}

const refreshCerts = () => Promise.all([queryClient.invalidateQueries({ queryKey: CERTS }), refreshUser()]);

export function useSubmitCert() {
  return useMutation({
    mutationFn: (c: CertInput) => typedApi.post('/v2/user/certification/submit', { body: c }),
    onSuccess: refreshCerts,
  });
}

export function useWithdrawCert() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/user/certification/withdraw/{id}', { path: { id } }),
    onSuccess: refreshCerts,
  });
}
