import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import type { WaitlistRow, WaitlistStanding, WaitlistState } from './domain';

/** The household's waitlist places ("Where I stand"), keyed once for every page that shows them. */
export const myWaitlistKey = ['waitlist', 'mine'] as const;

export function useMyWaitlist() {
  return useQuery({ queryKey: myWaitlistKey, queryFn: ({ signal }) => api.get<WaitlistStanding[]>('/Waitlist/mine', { signal }) });
}

/** Keep my place / Restore my place / declined sizes: the answer is the new standing of that lottery. */
export function useMyWaitlistAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { applicationId: string; action: 'ConfirmInterest' | 'RestorePlace' } | { applicationId: string; declined: string[] }) => {
      const base = `/Waitlist/mine/${encodeURIComponent(input.applicationId)}`;
      return 'declined' in input ? api.put<WaitlistStanding>(`${base}/declined-sizes`, { declined: input.declined }) : api.post<WaitlistStanding>(`${base}/${input.action}`, {});
    },
    onSuccess: (standing) => {
      client.setQueryData<WaitlistStanding[]>(myWaitlistKey, (all) => all?.map((s) => (s.applicationId === standing.applicationId ? standing : s)));
    },
  });
}

/** The signed-out link: reading it shows the question and changes nothing; only the button's POST acts. */
export const waitlistLink = {
  view: (token: string) => api.post<WaitlistStanding>('/Waitlist/link', { token }),
  act: (token: string, action: 'ConfirmInterest' | 'RestorePlace') => api.post<WaitlistStanding>(`/Waitlist/link/${action}`, { token }),
};

export interface WaitlistPage {
  checkInMonths: number | null;
  rows: WaitlistRow[];
  next: number | null;
}

const managerBase = (opportunityId: string) => `/Waitlist/${encodeURIComponent(opportunityId)}`;

export const managerWaitlist = {
  page: (opportunityId: string, state: WaitlistState, after: number, signal?: AbortSignal) =>
    api.get<WaitlistPage>(`${managerBase(opportunityId)}?state=${state}&after=${after}&limit=50`, { signal }),
  restore: (opportunityId: string, applicationId: string, reason: string) => api.post<{ restored: true }>(`${managerBase(opportunityId)}/${encodeURIComponent(applicationId)}/RestorePlace`, { reason }),
  returnedLetter: (opportunityId: string, applicationId: string) =>
    api.post<{ outcome: 'confirmed' | 'restored' }>(`${managerBase(opportunityId)}/${encodeURIComponent(applicationId)}/RecordReturnedLetter`, {}),
  setMonths: (opportunityId: string, months: number) => api.put<{ checkInMonths: number }>(`${managerBase(opportunityId)}/check-in-months`, { months }),
};
