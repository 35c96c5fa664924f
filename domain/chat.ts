import { z } from 'zod';
import { MAX_TICKET_MESSAGE_LENGTH, SUPPORT_MESSAGES } from './support-ticket';

/**
 * Messages with the managing office (spec section 7 "Chat"): one conversation per
 * household and organisation. The household's head writes from the household's side; the
 * organisation's managers answer from its inbox (active chats).
 */
export type ChatSide = 'household' | 'staff';

const Body = z.string({ error: SUPPORT_MESSAGES.messageRequired }).trim().min(1, SUPPORT_MESSAGES.messageRequired).max(MAX_TICKET_MESSAGE_LENGTH, SUPPORT_MESSAGES.messageTooLong);

/**
 * `POST /api/Chat/SendMessage`: a resident names the organisation (default: their household's);
 * a manager names the household (the organisation is theirs).
 */
export const SendChatMessageBody = z
  .object({
    householdId: z.string().uuid('Invalid household id').optional(),
    organizationId: z.string().uuid('Invalid organization id').optional(),
    message: Body,
  })
  .strict();
export type SendChatMessageBody = z.infer<typeof SendChatMessageBody>;

export const PinChatMessageBody = z.object({ pinned: z.boolean().optional() }).strict();

/**
 * 'text': written by a person. 'documents_shared': the household shared documents in the
 * conversation (ChatbotBridge/upload-document); the body holds only the file names and each reader
 * sees the sentence in their own language.
 */
export const CHAT_MESSAGE_KINDS = ['text', 'documents_shared'] as const;
export type ChatMessageKind = (typeof CHAT_MESSAGE_KINDS)[number];
/** How messages of kind 'documents_shared' were stored before they had a kind (English, names after it). */
export const LEGACY_SHARED_DOCUMENT_PREFIX = 'Shared a document: ';

export interface ChatMessage {
  messageId: string;
  kind: ChatMessageKind;
  householdId: string;
  organizationId: string;
  side: ChatSide;
  senderUserId: string | null;
  /** Null once its author deleted it. */
  body: string | null;
  pinned: boolean;
  deleted: boolean;
  createdAt: string;
}

/** One page of a conversation, newest first, and how far the other side has read (seen status). */
export interface ChatHistoryPage {
  items: ChatMessage[];
  nextCursor: string | null;
  otherSideSeenUpTo: string | null;
}

export interface ActiveChat {
  householdId: string;
  organizationId: string;
  householdName: string;
  lastMessageAt: string;
  unseen: number;
}

/** The header's count (auth state unseenMessagesCount) and where the resident's chat goes (activeOrganizationIdForChat). */
export interface ChatUnseen {
  unseenMessagesCount: number;
  activeOrganizationIdForChat: string | null;
  householdId: string | null;
}
