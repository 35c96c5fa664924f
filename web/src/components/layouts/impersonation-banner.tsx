import { useMutation } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { homePathFor } from '../../features/auth/home-path';
import { api } from '../../lib/api-client';
import type { LoginData } from '../../lib/domain-core';
import { useErrorText } from '../../lib/errors';
import { getRealUser, getSession, holdSession, stopImpersonating, subscribeSession, switchSessionAndGo } from '../../lib/session';
import { useToast } from '../ui/toast';

/**
 * While an ambassador or manager acts for a user: who is acting, and the way back. Exit restores the
 * real session from the response and goes to the real user's home (spec section 4).
 */
export function ImpersonationBanner() {
  const { t } = useTranslation('auth');
  const realUser = useSyncExternalStore(subscribeSession, getRealUser, () => null);
  const session = useSyncExternalStore(subscribeSession, getSession, () => null);
  const toast = useToast();
  const errorText = useErrorText();
  const exit = useMutation({
    mutationFn: async () => {
      // Polls still running with the acting user's token get 401 once the server has ended it.
      const release = holdSession();
      try {
        return await api.post<LoginData>('/Account/exit-impersonation');
      } catch (error) {
        release();
        throw error;
      }
    },
    onSuccess: (data) => switchSessionAndGo(() => stopImpersonating(data), homePathFor(data.role)),
    onError: (error) => toast.showError(errorText(error)),
  });
  if (!realUser || !session) return null;
  const name = `${session.user.firstName} ${session.user.lastName}`.trim();
  return (
    <div className="impersonation-banner" role="status">
      <span>{t('impersonation.actingFor', { name, realName: `${realUser.firstName} ${realUser.lastName}`.trim() })}</span>
      <button type="button" className="button button-secondary" onClick={() => exit.mutate()} disabled={exit.isPending}>
        {t('impersonation.exit')}
      </button>
    </div>
  );
}
