import { z } from 'zod';

/**
 * Support tickets (spec section 7 "Support tickets", design/workflows.md "Support ticket"):
 * the categories, statuses, service levels and the request bodies the API and the web app share.
 */
export const SUPPORT_TICKET_CATEGORIES = ['profile', 'documents', 'application', 'lottery', 'recertification', 'relocation', 'account', 'other'] as const;
export type SupportTicketCategory = (typeof SUPPORT_TICKET_CATEGORIES)[number];

export const SUPPORT_TICKET_STATUSES = ['awaiting_staff', 'awaiting_requester', 'resolved', 'closed'] as const;
export type SupportTicketStatus = (typeof SUPPORT_TICKET_STATUSES)[number];
/** Statuses a ticket is still being worked in (a reply to a resolved one reopens it). */
export const OPEN_SUPPORT_TICKET_STATUSES = ['awaiting_staff', 'awaiting_requester'] as const satisfies readonly SupportTicketStatus[];

/** The cases a ticket can be opened from ('contact support', spec section 4 applicant actions). */
export const SUPPORT_CASE_KINDS = ['lease_up', 'recertification', 'relocation'] as const;
export type SupportCaseKind = (typeof SUPPORT_CASE_KINDS)[number];

/** Service levels: the first staff answer is due this many business days after opening. */
export const FIRST_ANSWER_BUSINESS_DAYS = 2;
/** A resolved ticket closes after this many days without a reply from the requester. */
export const AUTO_CLOSE_DAYS = 7;
/** Long threads belong in a new ticket: the workflow state stays small. */
export const MAX_TICKET_MESSAGES = 200;
export const MAX_TICKET_MESSAGE_LENGTH = 4000;

/** Texts of the ticket and message forms (translated as `common:validation.<code>`). */
export const SUPPORT_MESSAGES = {
  messageRequired: 'Please write a message',
  messageTooLong: `The message is too long (${MAX_TICKET_MESSAGE_LENGTH} characters at most)`,
  subjectRequired: 'Please give a subject',
  subjectTooLong: 'The subject is too long (150 characters at most)',
  categoryRequired: 'Please choose a category',
} as const;

const text = (max: number) =>
  z
    .string({ error: SUPPORT_MESSAGES.messageRequired })
    .trim()
    .min(1, SUPPORT_MESSAGES.messageRequired)
    .max(max, SUPPORT_MESSAGES.messageTooLong);

export const TicketMessageText = text(MAX_TICKET_MESSAGE_LENGTH);

/** `POST CreateSupportTicket`: a category, a subject, the first message and, from a case, the case. */
export const CreateSupportTicketBody = z
  .object({
    category: z.enum(SUPPORT_TICKET_CATEGORIES, { error: SUPPORT_MESSAGES.categoryRequired }),
    subject: z.string({ error: SUPPORT_MESSAGES.subjectRequired }).trim().min(1, SUPPORT_MESSAGES.subjectRequired).max(150, SUPPORT_MESSAGES.subjectTooLong),
    message: TicketMessageText,
    caseKind: z.enum(SUPPORT_CASE_KINDS).optional(),
    caseId: z.string().uuid('Invalid case id').optional(),
  })
  .strict()
  .refine((b) => (b.caseKind === undefined) === (b.caseId === undefined), { message: 'A case needs both its kind and its id', path: ['caseId'] });
export type CreateSupportTicketBody = z.infer<typeof CreateSupportTicketBody>;

/** `POST AddReplyToTicket`: either side's reply; staff may resolve or assign with their own actions. */
export const AddReplyToTicketBody = z
  .object({
    ticketId: z.string().uuid('Invalid ticket id'),
    message: TicketMessageText,
  })
  .strict();

/** Staff actions on a ticket (paths chosen here, beside the spec's four). */
export const ResolveTicketBody = z.object({ note: z.string().trim().max(MAX_TICKET_MESSAGE_LENGTH).optional() }).strict();
export const AssignTicketBody = z.object({ assigneeUserId: z.string().uuid('Invalid user id') }).strict();

/** `GET GetSupportTickets`: the caller's own tickets, or the staff queue, filtered and paged by cursor. */
export const SupportTicketListQuery = z
  .object({
    status: z.enum([...SUPPORT_TICKET_STATUSES, 'open']).optional(),
    category: z.enum(SUPPORT_TICKET_CATEGORIES).optional(),
    assignedToMe: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
    escalated: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
    caseId: z.string().uuid('Invalid case id').optional(),
    cursor: z.string().max(600).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();
export type SupportTicketListQuery = z.infer<typeof SupportTicketListQuery>;

/**
 * A file attached to a ticket message: sent as multipart with CreateSupportTicket or
 * AddReplyToTicket, through the same checks as household documents (10 MB a file, at most
 * MAX_FILES_PER_UPLOAD, type by content), kept private; downloaded by the ticket's requester and staff.
 */
export interface SupportTicketAttachment {
  attachmentId: string;
  /** The thread message it came with (1 = the opening message). */
  messageSeq: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  uploadedAt: string;
}

/** One row of a ticket list (the read model; message bodies are read only in a ticket's detail). */
export interface SupportTicketListItem {
  ticketId: string;
  subject: string;
  category: SupportTicketCategory;
  status: SupportTicketStatus;
  requesterName: string;
  organizationId: string | null;
  caseKind: SupportCaseKind | null;
  caseId: string | null;
  assigneeUserId: string | null;
  escalated: boolean;
  firstAnswerDueAt: string | null;
  lastActivityAt: string;
  createdAt: string;
}
