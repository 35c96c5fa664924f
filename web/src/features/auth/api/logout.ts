import { useMutation } from '@tanstack/react-query';
import { paths } from '../../../config/paths';
import { ApiError, api } from '../../../lib/api-client';
import { clearSession, getSession } from '../../../lib/session';

/**
 * POST /api/Account/logout. Spec section 4: local data are cleared only on an OK answer; a 404
 * (no logout endpoint on this server) clears them too, since there is nothing to revoke.
 */
export async function logout(): Promise<void> {
  const refreshToken = getSession()?.tokens.refreshToken;
  try {
    await api.post<unknown>('/Account/logout', refreshToken ? { refreshToken } : {});
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

/** Signing out reloads the app at /login, so no cached data of this user stays in memory. */
export function useLogout() {
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      clearSession();
      window.location.assign(paths.login.getHref());
    },
  });
}
