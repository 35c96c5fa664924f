import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/domain';
import type { AlertInput, AlertView, PublicSubscribeInput } from '../../../../../domain/listing-alerts';

/** `/api/ListingAlerts`: the signed-in household's alerts, and the visitor's subscribe, confirm and unsubscribe. */
const KEY = ['listing-alerts'] as const;

export function useMyAlerts(cursor: string | undefined) {
  return useQuery({ queryKey: [...KEY, cursor ?? ''], queryFn: ({ signal }) => api.get<Page<AlertView>>('/ListingAlerts', { query: cursor ? { cursor, limit: 25 } : { limit: 25 }, signal }) });
}

export function useAlertActions() {
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: KEY });
  return {
    create: useMutation({ mutationFn: (input: AlertInput) => api.post<AlertView>('/ListingAlerts', input), onSuccess: done }),
    update: useMutation({ mutationFn: ({ id, input }: { id: string; input: AlertInput }) => api.put<AlertView>(`/ListingAlerts/${encodeURIComponent(id)}`, input), onSuccess: done }),
    pause: useMutation({ mutationFn: ({ id, paused }: { id: string; paused: boolean }) => api.post<AlertView>(`/ListingAlerts/${encodeURIComponent(id)}/pause`, { paused }), onSuccess: done }),
    remove: useMutation({ mutationFn: (id: string) => api.delete<{ deleted: true }>(`/ListingAlerts/${encodeURIComponent(id)}`), onSuccess: done }),
  };
}

export const publicAlerts = {
  subscribe: (input: PublicSubscribeInput) => api.post<{ status: 'pending_confirmation'; channel: 'email' | 'sms' }>('/ListingAlerts/subscribe', input),
  confirm: (token: string) => api.post<{ status: 'active' }>('/ListingAlerts/confirm', { token }),
  unsubscribe: (token: string) => api.post<{ unsubscribed: true }>('/ListingAlerts/unsubscribe', { token }),
};
