import { useMutation } from '@tanstack/react-query';
import { startImpersonating, switchSessionAndGo } from '../../../lib/session';
import { api } from '../../../lib/api-client';
import type { ImpersonationData } from '../../../lib/domain';
import { homePathFor } from '../../auth/home-path';

/** Impersonate from the ambassador's pages (spec section 4): the user's session, then their home page. */
export function useActFor() {
  return useMutation({
    mutationFn: (userId: string) => api.post<ImpersonationData>(`/Account/impersonate/${encodeURIComponent(userId)}`),
    onSuccess: (data) => switchSessionAndGo(() => startImpersonating(data), homePathFor(data.user.role)),
  });
}
