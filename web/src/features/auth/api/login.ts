import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { LoginBody, LoginData } from '../../../lib/domain';
import { saveSession } from '../../../lib/session';

/** POST /api/Account/login: `data` is the signed-in user's fields plus the tokens (spec section 3). */
export function login(body: LoginBody): Promise<LoginData> {
  return api.post<LoginData>('/Account/login', body);
}

export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => saveSession(data),
  });
}
