import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { LoginBody } from '../../../lib/domain';
import { saveSession, setPendingUserId } from '../../../lib/session';
import { isMfaPending, type LoginAnswer } from './account';

/**
 * POST /api/Account/login: `data` is the signed-in user's fields plus the tokens (spec section 3),
 * or, with MFA, only the pending user id (no session until the OTP is verified).
 */
export function login(body: LoginBody): Promise<LoginAnswer> {
  return api.post<LoginAnswer>('/Account/login', body);
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
