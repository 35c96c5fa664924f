import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client';
import type { ActiveChat, ChatHistoryPage, ChatMessage, ChatUnseen, Page } from '../../../lib/domain';
import { useChatLive } from './chat-events';

/**
 * `/api/Chat` (spec section 7). Changes arrive live (chat-events.ts: each event refetches these
 * queries); only while the stream is down do open pages look again every few seconds.
 */
const seg = encodeURIComponent;
export const chatKey = ['chat'] as const;

/** The header's count (auth state unseenMessagesCount) and the resident's conversation (activeOrganizationIdForChat). */
export function useUnseen(enabled: boolean) {
  const live = useChatLive();
  return useQuery({ queryKey: [...chatKey, 'unseen'], queryFn: ({ signal }) => api.get<ChatUnseen>('/Chat/unseen-count', { signal }), refetchInterval: live ? false : 20_000, enabled });
}

export function useActiveChats(enabled: boolean) {
  const live = useChatLive();
  return useQuery({ queryKey: [...chatKey, 'active'], queryFn: ({ signal }) => api.get<Page<ActiveChat>>('/Chat/active-chats', { signal }), refetchInterval: live ? false : 10_000, enabled });
}

export function useHistory(householdId: string | null, organizationId: string | null) {
  const live = useChatLive();
  return useQuery({
    queryKey: [...chatKey, 'history', householdId, organizationId],
    queryFn: ({ signal }) => api.get<ChatHistoryPage>(`/Chat/GetPreviousMessages/${seg(householdId!)}/${seg(organizationId!)}`, { signal, query: { limit: 50 } }),
    enabled: Boolean(householdId && organizationId),
    refetchInterval: live ? false : 5_000,
  });
}

export function useSendMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { householdId?: string; organizationId?: string; message: string }) => api.post<ChatMessage>('/Chat/SendMessage', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: chatKey }),
  });
}

export function useMarkSeen() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ householdId, organizationId, messageId }: { householdId: string; organizationId: string; messageId: string }) =>
      api.post<ChatUnseen>(`/Chat/UpdateMessageSeenStatus/${seg(householdId)}/${seg(organizationId)}/${seg(messageId)}`),
    onSuccess: (unseen) => {
      client.setQueryData([...chatKey, 'unseen'], unseen);
      void client.invalidateQueries({ queryKey: [...chatKey, 'active'] });
    },
  });
}

/** The office pins a message for both sides (`SetMessageAsPinned/{id}`, `pinned` says which way). */
export function usePinMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, pinned }: { messageId: string; pinned: boolean }) => api.post<ChatMessage>(`/Chat/SetMessageAsPinned/${seg(messageId)}`, { pinned }),
    onSuccess: () => void client.invalidateQueries({ queryKey: chatKey }),
  });
}

/** Its author deletes a message (`DeleteMessage/{id}`): its place stays, its text is gone for both sides. */
export function useDeleteMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (messageId: string) => apiRequest<ChatMessage>('DELETE', `/Chat/DeleteMessage/${seg(messageId)}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: chatKey }),
  });
}
