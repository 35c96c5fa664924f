import { useEffect } from 'react';
import { refreshDelay, refreshTokens } from '../../../lib/api-client';
import { useSession } from './use-session';

/**
 * A device clock far ahead of the server's makes every new token look due at once; after one
 * refresh, the next waits at least this long instead of looping.
 */
const MIN_GAP_BETWEEN_REFRESHES_MS = 60_000;
let lastRefreshAt = 0;

function refresh(): void {
  lastRefreshAt = Date.now();
  void refreshTokens();
}

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
    const sinceLast = Date.now() - lastRefreshAt;
    if (delay === 'now' && sinceLast >= MIN_GAP_BETWEEN_REFRESHES_MS) {
      refresh();
      return;
    }
    const wait = delay === 'now' ? MIN_GAP_BETWEEN_REFRESHES_MS - sinceLast : delay;
    const timer = window.setTimeout(refresh, wait);
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
}
