import { api } from '../../../lib/api-client';
import type { LoginData, MfaPendingData, OtpChannel, RegisterBody } from '../../../lib/domain';

/** `/api/Account` and `/api/ProfileMatch` calls of the signed-out pages (spec section 7). */
export type LoginAnswer = LoginData | MfaPendingData;
export const isMfaPending = (data: LoginAnswer): data is MfaPendingData => 'mfaRequired' in data && data.mfaRequired === true;

export const account = {
  sendOtp: (userId: string, otpChannel: OtpChannel) => api.post<unknown>('/Account/send-otp', { userId, otpChannel }),
  verifyOtp: (userId: string, otp: string) => api.post<LoginData>('/Account/verify-otp', { userId, otp }),
  sendLoginCode: (username: string) => api.post<{ sent: boolean }>('/Account/send-login-code', { username }),
  loginWithCode: (username: string, otp: string, deviceTokens: string[]) =>
    api.post<LoginData>('/Account/login-with-code', deviceTokens.length > 0 ? { username, otp, deviceTokens } : { username, otp }),
  register: (body: RegisterBody) => api.post<{ userId: string; email: string }>('/Account/register', body),
  sendRegisterOtp: (userId: string, otpChannel: OtpChannel) => api.post<unknown>('/Account/senduserregisterotp', { userId, otpChannel }),
  verifyRegisterOtp: (userId: string, otp: string) => api.post<unknown>('/Account/verifyuserregisterotp', { userId, otp }),
  verifyEmail: (userId: string, token: string) => api.get<unknown>('/Account/verify-email', { query: { userId, token } }),
  forgetPassword: (email: string) => api.post<unknown>('/Account/forget-password', { email }),
  checkResetToken: (token: string) => api.get<unknown>(`/Account/check-reset-token/${encodeURIComponent(token)}`),
  resetPassword: (body: { userId: string; token: string; password: string; confirmPassword: string }) => api.post<unknown>('/Account/reset-password', body),
  forgotUsername: (email: string, otp?: string) => api.post<{ username?: string }>(`/Account/forgot-username/${encodeURIComponent(email)}`, otp ? { otp } : {}),
  impersonate: (userId: string) => api.post<{ user: LoginData; realUser: LoginData } & LoginData>(`/Account/impersonate/${encodeURIComponent(userId)}`),
  managerImpersonate: (managerId: string, userId: string) =>
    api.post<{ user: LoginData; realUser: LoginData } & LoginData>(`/Account/managers/${encodeURIComponent(managerId)}/impersonate/${encodeURIComponent(userId)}`),
};

export interface Building {
  id: string;
  name: string;
  address: string;
}

export const profileMatch = {
  buildings: () => api.get<Building[]>('/ProfileMatch/get-buildings-list'),
  units: (buildingId: string) => api.get<string[]>(`/ProfileMatch/get-building-units/${encodeURIComponent(buildingId)}`),
  matchTenant: (body: { email: string; buildingId: string; unitNumber: string; firstName: string; lastName: string; dateOfBirth: string }) =>
    api.post<{ userId: string; tenantRecordId: string; email: string; phone: string }>('/ProfileMatch/MatchTenantProfile', body),
  /** The (masked) address the managing agent has on file for a matched resident: where the code goes. */
  tenantEmail: (tenantRecordId: string) => api.get<{ email: string }>(`/ProfileMatch/fetchApplicantEmailAddress/${encodeURIComponent(tenantRecordId)}`),
  sendTenantOtp: (userId: string, tenantRecordId: string, otpChannel: OtpChannel, resend = false) =>
    api.post<unknown>(resend ? '/ProfileMatch/ReSendOtp' : '/ProfileMatch/SendOtp', { userId, tenantRecordId, otpChannel }),
  verifyTenantOtp: (userId: string, tenantRecordId: string, otp: string) => api.post<unknown>('/ProfileMatch/VerifyTenantOtp', { userId, tenantRecordId, otp }),
  leaseUpMatch: (body: { email: string; firstName: string; lastName: string; phoneNumber: string }) =>
    api.post<{ userId: string; email: string; phone: string }>('/ProfileMatch/LeaseUpMatchProfile', body),
  sendLinkOtp: (userId: string, channel: OtpChannel) => api.post<unknown>(`/ProfileMatch/sendotpforprofilelink/${encodeURIComponent(userId)}/${channel}`),
  validateLinkOtp: (userId: string, otp: string) => api.post<unknown>('/ProfileMatch/validatelinkprofileotp', { userId, otp }),
};
