import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type Session } from '../../../lib/session';

/** The signed-in session from local storage; re-renders when it changes (here or in another tab). */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}
