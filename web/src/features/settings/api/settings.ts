import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, type ApiErrorCode } from '../../../lib/api-client';
import type { OtpChannel, ProfileSettings } from '../../../lib/domain';
import { getAccessToken } from '../../../lib/session';

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
  requestOtp: (otpChannel: OtpChannel, phoneNumber?: string) => api.post<{ otpChannel: OtpChannel }>('/Signature/generateotpforchangesignrature', { otpChannel, phoneNumber }),
  validateOtp: (otp: string) => api.get<unknown>(`/Signature/validateotp/otp/${encodeURIComponent(otp)}`),
  save: (signatureBase64: string, autoGenerateRequest: boolean) => api.put<ProfileSettings>('/UserProfile/Profile/Signature', { signatureBase64, autoGenerateRequest }),
};

/** Downloads the household's data as a zip (GET /api/Household/my-data/export), its summary in `language`; saved by the browser. */
export async function downloadMyData(language: string): Promise<void> {
  const token = getAccessToken();
  const response = await fetch(`/api/Household/my-data/export?language=${encodeURIComponent(language)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    // A refusal (too large, another download running, too many in an hour) carries its code in the envelope.
    const envelope = (await response.json().catch(() => null)) as { message?: string; data?: { code?: string } } | null;
    const code = envelope?.data?.code;
    if (code) throw new ApiError(response.status, envelope?.message ?? '', code as ApiErrorCode);
    throw new Error(`download failed (${response.status})`);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'my-data.zip';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}
