import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userQuery } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';

export interface Profile {
  name: string;
  email: string;
  country: string;
  area: string;
  address: string;
  introduction: string;
  personalWebsite: string;
  phone: string;
}

export interface Security {
  securityQuestion: string;
  securityAnswer: string;
  phone: string;
  email: string;
}

export interface PasswordChange {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

export interface CertInput {
  accountType: 'enterprise' | 'individual';
  legalPerson: string;
  legalCertType: 'id_card' | 'passport' | 'other';
  legalCertNumber: string;
  enterpriseName: string;
  enterpriseCertType: 'business_license' | 'uscc' | 'other';
  organizationCode: string;
}

export interface CertRecord extends CertInput {
  id: number;
  status: 'auditing' | 'passed' | 'refused' | 'withdrawn';
  reason: string;
  createdAt: string;
  decidedAt: string | null;
}

const refreshUser = () => queryClient.invalidateQueries({ queryKey: userQuery.queryKey });

export function useSaveProfile() {
  return useMutation({ mutationFn: (p: Profile) => api.post('/v2/user/profile', p), onSuccess: refreshUser });
}

export function useSaveSecurity() {
  return useMutation({ mutationFn: (s: Security) => api.post('/v2/user/security', s), onSuccess: refreshUser });
}

export function useChangePassword(uid: string | number) {
  return useMutation({ mutationFn: (p: PasswordChange) => api.post(`/v2/org/user/changepwd/${uid}`, p) });
}

export function useUploadAvatar() {
  return useMutation({
    mutationFn: (image: string) => api.post<{ url: string }>('/v2/user/avatar', { image }),
    onSuccess: refreshUser,
  });
}

const CERTS = ['account', 'certs'];

export function useMyCerts() {
  return useQuery({
    queryKey: CERTS,
    queryFn: ({ signal }) => api.get<CertRecord[]>('/v2/user/certification/list', { signal }),
  });
}

const refreshCerts = () => Promise.all([queryClient.invalidateQueries({ queryKey: CERTS }), refreshUser()]);

export function useSubmitCert() {
  return useMutation({
    mutationFn: (c: CertInput) => api.post('/v2/user/certification/submit', c),
    onSuccess: refreshCerts,
  });
}

export function useWithdrawCert() {
  return useMutation({
    mutationFn: (id: number) => api.post(`/v2/user/certification/withdraw/${id}`),
    onSuccess: refreshCerts,
  });
}
