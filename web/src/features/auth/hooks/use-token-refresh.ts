import { useEffect } from 'react';
import { refreshDelay, refreshTokens } from '../../../lib/api-client';
import { useSession } from './use-session';

/**
 * Spec section 4: refresh the access token 5 minutes before it expires; at once when already due;
 * no scheduled refresh when the wait would be under 30 seconds. Re-schedules after every refresh,
 * since the new expiry changes the session.
 */
export function useTokenRefresh(): void {
  const expiresAt = useSession()?.tokens.accessTokenExpiresAt;
  useEffect(() => {
    if (!expiresAt) return;
    const delay = refreshDelay(expiresAt);
    if (delay === null) return;
    if (delay === 'now') {
      void refreshTokens();
      return;
    }
    const timer = window.setTimeout(() => void refreshTokens(), delay);
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
}
