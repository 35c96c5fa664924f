import { useMutation } from '@tanstack/react-query';
import { startImpersonating } from '../../../lib/session';
import { account } from '../../auth/api/account';
import { homePathFor } from '../../auth/home-path';

/** Impersonate from the ambassador's pages (spec section 4): the user's session, then their home page. */
export function useActFor() {
  return useMutation({
    mutationFn: (userId: string) => account.impersonate(userId),
    onSuccess: (data) => {
      startImpersonating(data, { silent: true });
      window.location.assign(homePathFor(data.user.role));
    },
  });
}
