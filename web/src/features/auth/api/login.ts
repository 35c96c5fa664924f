import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { LoginBody } from '../../../lib/domain';
import { knownDeviceTokens, saveSession, setPendingUserId } from '../../../lib/session';
import { isMfaPending, type LoginAnswer } from './account';

/**
 * POST /api/Account/login: `data` is the signed-in user's fields plus the tokens (spec section 3),
 * or, with MFA, only the pending user id (no session until the OTP is verified).
 */
export function login(body: LoginBody): Promise<LoginAnswer> {
  // A device that signed in before says so: throttles strangers build up do not hold it back.
  const deviceTokens = knownDeviceTokens();
  return api.post<LoginAnswer>('/Account/login', deviceTokens.length > 0 ? { ...body, deviceTokens } : body);
}

export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      if (isMfaPending(data)) setPendingUserId(data.userId);
      else saveSession(data);
    },
  });
}
