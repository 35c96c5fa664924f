import type { ColumnType, Generated } from 'kysely';
import type { SupportCaseKind, SupportTicketCategory, SupportTicketStatus } from '../../../domain';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** Read model of support tickets, written only by the ticket's projection (version-guarded). */
export interface SupportTicketTable {
  id: string;
  workflow_id: string;
  requester_user_id: string;
  requester_kind: 'resident' | 'ambassador';
  household_id: string | null;
  organization_id: string | null;
  category: SupportTicketCategory;
  /** Sealed with the data key (the requester's own words). */
  subject_encrypted: string;
  status: SupportTicketStatus;
  case_kind: SupportCaseKind | null;
  case_id: string | null;
  assignee_user_id: string | null;
  escalated: boolean;
  first_answer_due_at: Timestamp;
  last_activity_at: Timestamp;
  created_at: Timestamp;
  state_version: number;
  /** The whole view sealed as `{"$sealed": ...}` (it holds the thread). */
  view: Json<unknown>;
  projected_at: Generated<Date>;
}

export interface ChatConversationTable {
  household_id: string;
  organization_id: string;
  last_message_at: Timestamp;
  created_at: Generated<Date>;
}

export interface ChatMessageTable {
  id: Generated<string>;
  household_id: string;
  organization_id: string;
  sender_user_id: string | null;
  sender_side: 'household' | 'staff';
  /** Sealed with the data key; null once its author deleted it. */
  body_encrypted: string | null;
  document_id: string | null;
  /** 'documents_shared': the body holds only the file names; the reader's language says the rest. */
  kind: Generated<'text' | 'documents_shared'>;
  pinned: Generated<boolean>;
  deleted_at: Timestamp | null;
  created_at: Generated<Date>;
  /** The hashed Idempotency-Key of the request that sent it: a retried send finds it instead of sending twice. */
  request_key: Generated<string | null>;
}

export interface ChatReadTable {
  household_id: string;
  organization_id: string;
  user_id: string;
  seen_up_to: Timestamp;
}

export type LocalizedText = Record<'en' | 'es' | 'zh' | 'bn', string>;

export interface FaqCategoryTable {
  id: Generated<string>;
  slug: string;
  position: number;
  name: Json<LocalizedText>;
  updated_at: Generated<Date>;
}

export interface FaqQuestionTable {
  id: Generated<string>;
  category_id: string;
  position: number;
  question: Json<LocalizedText>;
  answer: Json<LocalizedText>;
  updated_at: Generated<Date>;
}

/** A file attached to a ticket message, private in the blob store. */
export interface SupportTicketAttachmentTable {
  id: string;
  ticket_id: string;
  message_seq: number;
  uploaded_by: string | null;
  file_name: string;
  content_type: string;
  size_bytes: number;
  blob_key: string;
  uploaded_at: Generated<Date>;
}

export interface SupportTables {
  support_tickets: SupportTicketTable;
  chat_conversations: ChatConversationTable;
  chat_messages: ChatMessageTable;
  chat_reads: ChatReadTable;
  faq_categories: FaqCategoryTable;
  faq_questions: FaqQuestionTable;
  support_ticket_attachments: SupportTicketAttachmentTable;
}
