import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { OtpChannel, ProfileSettings } from '../../../lib/domain';

/** GET/POST /api/UserProfile/settings (path chosen here; the spec does not show it). */
export const settingsQuery = queryOptions({ queryKey: ['profile-settings'], queryFn: () => api.get<ProfileSettings>('/UserProfile/settings') });

export function useSettings(enabled = true) {
  return useQuery({ ...settingsQuery, enabled });
}

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<Omit<ProfileSettings, 'hasSignature' | 'signatureKind'>>) => api.post<ProfileSettings>('/UserProfile/settings', body),
    onSuccess: (data) => client.setQueryData(settingsQuery.queryKey, data),
  });
}

/** Signature change (spec section 7): OTP, validation, then PUT Profile/Signature. */
export const signature = {
  requestOtp: (otpChannel: OtpChannel) => api.post<unknown>('/Signature/generateotpforchangesignrature', { otpChannel }),
  validateOtp: (otp: string) => api.get<unknown>(`/Signature/validateotp/otp/${encodeURIComponent(otp)}`),
  save: (signatureBase64: string, autoGenerateRequest: boolean) => api.put<ProfileSettings>('/UserProfile/Profile/Signature', { signatureBase64, autoGenerateRequest }),
};
