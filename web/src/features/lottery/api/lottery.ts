import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { applicationsCloseAt, type LotteryManagerAction, type LotteryView } from '../../../lib/domain';
import { getAccessToken } from '../../../lib/session';

export interface RankedRow {
  applicationId: string;
  logNumber: string | null;
  rank: number;
  status: string;
  householdSize: number;
  groups: string[];
  groupPositions: Record<string, number> | null;
  skipReason: string | null;
  invitedAt: string | null;
}

const base = (opportunityId: string) => `/OpportunityLottery/${encodeURIComponent(opportunityId)}`;
export const lotteryKey = (opportunityId: string) => ['lottery', opportunityId] as const;

/**
 * The lottery as last projected; refetched while a draw or invitations are under way (progress). An
 * action answers with its workflow's newer view, which the projection may not hold yet: the newer
 * version stays on the page.
 */
export function useLottery(opportunityId: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: lotteryKey(opportunityId),
    queryFn: async ({ signal }) => {
      const read = await api.get<LotteryView>(base(opportunityId), { signal });
      const shown = client.getQueryData<LotteryView>(lotteryKey(opportunityId));
      return shown && shown.version > read.version ? shown : read;
    },
    refetchInterval: (query) => {
      const v = query.state.data;
      if (v && (v.stage === 'drawing' || (v.pendingInvitations > 0 && !v.paused))) return 1000;
      // Past the deadline, the workflow's timer is about to close applications; past the grace period, to freeze the list.
      if (v?.stage === 'accepting' && Date.now() >= Date.parse(applicationsCloseAt(v.deadline))) return 2000;
      return v?.stage === 'closed' && !v.frozen && v.listFreezesAt && !v.freezeBlockedBy?.length && Date.now() >= Date.parse(v.listFreezesAt) ? 2000 : false;
    },
  });
}

/** One page of the ranked list; `revision` (the draw and invitation counts) reads it again when they change. */
export function useRanked(opportunityId: string, after: number, revision: string) {
  return useQuery({
    queryKey: [...lotteryKey(opportunityId), 'ranked', after, revision],
    queryFn: ({ signal }) => api.get<{ rows: RankedRow[]; next: number | null }>(`${base(opportunityId)}/ranked?after=${after}&limit=50`, { signal }),
  });
}

/** One lottery action: the answer is the new view (the ranked list is read again). */
export function useLotteryAction(opportunityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, body }: { action: LotteryManagerAction; body: object }) => api.post<LotteryView>(`${base(opportunityId)}/${action}`, body),
    onSuccess: (view) => {
      client.setQueryData(lotteryKey(opportunityId), view);
      void client.invalidateQueries({ queryKey: [...lotteryKey(opportunityId), 'ranked'] });
    },
  });
}

/** Downloads the ranked list as CSV (streamed by the API; saved by the browser). */
export async function downloadRankedCsv(opportunityId: string): Promise<void> {
  const token = getAccessToken();
  const response = await fetch(`/api${base(opportunityId)}/ranked.csv`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`export failed (${response.status})`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `lottery-${opportunityId}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}
