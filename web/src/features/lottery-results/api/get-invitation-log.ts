import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { InvitationLogPage } from '../../../lib/domain';

export const LOG_LINES_PER_PAGE = 50;

/** GET /api/lottery/:opportunityId/invitation-log?after=&limit= (public: invitations and pass-overs by log number). */
export function getInvitationLog(opportunityId: string, after: number, signal?: AbortSignal): Promise<InvitationLogPage> {
  return api.get<InvitationLogPage>(`/lottery/${encodeURIComponent(opportunityId)}/invitation-log`, { query: after > 0 ? { after, limit: LOG_LINES_PER_PAGE } : { limit: LOG_LINES_PER_PAGE }, signal });
}

/** One page of the invitation log; the previous page stays on screen while the next loads. */
export function useInvitationLog(opportunityId: string, after: number) {
  return useQuery({
    queryKey: ['lottery-results', opportunityId, 'invitation-log', after],
    queryFn: ({ signal }) => getInvitationLog(opportunityId, after, signal),
    placeholderData: keepPreviousData,
  });
}
