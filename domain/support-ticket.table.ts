import { z } from 'zod';
import { addBusinessDays, addDays } from './calendar';
import { actionsOf, availableActions, type ActionTable, type CaseNotice, type CaseTimer, type ChangeContext } from './case';
import type { MessageCode } from './messages';
import {
  AUTO_CLOSE_DAYS,
  FIRST_ANSWER_BUSINESS_DAYS,
  MAX_TICKET_MESSAGES,
  MAX_TICKET_MESSAGE_LENGTH,
  TicketMessageText,
  type SupportCaseKind,
  type SupportTicketCategory,
  type SupportTicketStatus,
} from './support-ticket';

/**
 * A support ticket as a durable case (design/workflows.md "Support ticket"): the
 * requester (a resident, applicant or ambassador) and the staff of the ticket's organisation
 * (its managers, or the portal's admins) write to each other; the first staff answer is due in
 * FIRST_ANSWER_BUSINESS_DAYS business days, else the organisation's admins are told; a resolved
 * ticket closes AUTO_CLOSE_DAYS days later unless the requester replies, which reopens it.
 */
export const SUPPORT_TICKET_ROLES = ['requester', 'staff'] as const;
export type SupportTicketRole = (typeof SUPPORT_TICKET_ROLES)[number];

/** What the API knows when a ticket is opened: who asks, where it belongs, and whom to tell. */
export interface StartSupportTicketInput {
  ticketId: string;
  requesterUserId: string;
  requesterKind: 'resident' | 'ambassador';
  householdId: string | null;
  /** The organisation whose staff answer (the case's, else the household's or ambassador's); null: the portal's admins. */
  organizationId: string | null;
  category: SupportTicketCategory;
  subject: string;
  message: string;
  case: { kind: SupportCaseKind; id: string } | null;
  /** Told of each requester reply while nobody is assigned (the organisation's managers, or admins). */
  staffUserIds: string[];
  /** Told when the first answer is late (the organisation's admins, or every admin). */
  adminUserIds: string[];
  createdAt: string;
}

export interface SupportTicketMessage {
  seq: number;
  at: string;
  side: SupportTicketRole;
  authorUserId: string;
  body: string;
}

export const SUPPORT_TICKET_INPUTS = {
  /** The requester writes (reopens a resolved ticket). */
  Reply: z.object({ message: TicketMessageText }),
  /** Staff answer the requester. */
  Answer: z.object({ message: TicketMessageText }),
  /** Staff give the ticket to one of them (the API checks the assignee is staff of the organisation). */
  Assign: z.object({ assigneeUserId: z.string().uuid('Invalid user id') }),
  /** Staff mark it resolved, with an optional closing note to the requester. */
  Resolve: z.object({ note: z.string().trim().max(MAX_TICKET_MESSAGE_LENGTH).optional() }),
} as const;
export type SupportTicketAction = keyof typeof SUPPORT_TICKET_INPUTS;
export type SupportTicketInputs = { [A in SupportTicketAction]: z.infer<(typeof SUPPORT_TICKET_INPUTS)[A]> };

export interface SupportTicketState {
  readonly input: StartSupportTicketInput;
  status: SupportTicketStatus;
  messages: SupportTicketMessage[];
  assigneeUserId: string | null;
  firstAnswerDueAt: string;
  firstAnsweredAt: string | null;
  escalatedAt: string | null;
  resolvedAt: string | null;
  closesAt: string | null;
  closedAt: string | null;
  /** Grows with each resolution; an auto-close timer of an earlier one no longer counts. */
  resolveEpoch: number;
  reopenCount: number;
  version: number;
  updatedAt: string;
  history: { at: string; action: string; by: string; note?: string }[];
  timers: CaseTimer[];
}

export interface SupportTicketView {
  ticketId: string;
  requesterUserId: string;
  requesterKind: 'resident' | 'ambassador';
  householdId: string | null;
  organizationId: string | null;
  category: SupportTicketCategory;
  subject: string;
  case: { kind: SupportCaseKind; id: string } | null;
  status: SupportTicketStatus;
  messages: SupportTicketMessage[];
  assigneeUserId: string | null;
  escalated: boolean;
  escalatedAt: string | null;
  firstAnswerDueAt: string;
  firstAnsweredAt: string | null;
  resolvedAt: string | null;
  closesAt: string | null;
  closedAt: string | null;
  reopenCount: number;
  availableActions: Record<SupportTicketRole, SupportTicketAction[]>;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export function initialSupportTicketState(input: StartSupportTicketInput): SupportTicketState {
  const firstAnswerDueAt = addBusinessDays(input.createdAt, FIRST_ANSWER_BUSINESS_DAYS);
  return {
    input,
    status: 'awaiting_staff',
    messages: [{ seq: 1, at: input.createdAt, side: 'requester', authorUserId: input.requesterUserId, body: input.message }],
    assigneeUserId: null,
    firstAnswerDueAt,
    firstAnsweredAt: null,
    escalatedAt: null,
    resolvedAt: null,
    closesAt: null,
    closedAt: null,
    resolveEpoch: 0,
    reopenCount: 0,
    // Version 1 is the ticket as opened (the API writes it before the run starts).
    version: 1,
    updatedAt: input.createdAt,
    history: [{ at: input.createdAt, action: 'Create', by: 'requester' }],
    timers: [{ event: 'FirstAnswerDue', at: firstAnswerDueAt, token: 'first-answer' }],
  };
}

const isOpen = (s: SupportTicketState) => s.status === 'awaiting_staff' || s.status === 'awaiting_requester';
const ref = (s: SupportTicketState) => s.input.ticketId.slice(0, 8).toUpperCase();

/** One message to a person about this ticket, in their language (the outbox carries no message text: it is personal data). */
function tell(s: SupportTicketState, ctx: ChangeContext, userId: string, event: 'answered' | 'replied' | 'resolved' | 'escalated', key: string): void {
  const notice: CaseNotice = {
    userId,
    template: 'support-ticket',
    params: { event, ticketId: s.input.ticketId, ticketRef: ref(s), audience: userId === s.input.requesterUserId ? 'requester' : 'staff' },
    dedupeKey: `support-ticket:${s.input.ticketId}:${key}:${userId}`,
  };
  ctx.notify(notice);
}

function addMessage(s: SupportTicketState, side: SupportTicketRole, authorUserId: string, body: string, at: string): SupportTicketMessage {
  const message = { seq: s.messages.length + 1, at, side, authorUserId, body };
  s.messages.push(message);
  return message;
}

const roomLeft = (s: SupportTicketState): MessageCode | null => (s.messages.length >= MAX_TICKET_MESSAGES ? 'supportTicketFull' : null);

export const SUPPORT_TICKET_TABLE = {
  Reply: {
    by: 'requester',
    input: SUPPORT_TICKET_INPUTS.Reply,
    when: roomLeft,
    change: (s, input, ctx) => {
      const m = addMessage(s, 'requester', input.actor.userId, input.message, ctx.now);
      if (s.status === 'resolved') {
        s.reopenCount += 1;
        s.resolvedAt = null;
        s.closesAt = null;
      }
      s.status = 'awaiting_staff';
      for (const userId of s.assigneeUserId ? [s.assigneeUserId] : s.input.staffUserIds) tell(s, ctx, userId, 'replied', `message-${m.seq}`);
    },
  },
  Answer: {
    by: 'staff',
    input: SUPPORT_TICKET_INPUTS.Answer,
    when: (s) => (isOpen(s) ? roomLeft(s) : 'supportTicketResolved'),
    change: (s, input, ctx) => {
      const m = addMessage(s, 'staff', input.actor.userId, input.message, ctx.now);
      s.firstAnsweredAt ??= ctx.now;
      s.status = 'awaiting_requester';
      tell(s, ctx, s.input.requesterUserId, 'answered', `message-${m.seq}`);
    },
  },
  Assign: {
    by: 'staff',
    input: SUPPORT_TICKET_INPUTS.Assign,
    when: () => null,
    change: (s, input) => {
      s.assigneeUserId = input.assigneeUserId;
    },
  },
  Resolve: {
    by: 'staff',
    input: SUPPORT_TICKET_INPUTS.Resolve,
    when: (s) => (isOpen(s) ? null : 'supportTicketResolved'),
    change: (s, input, ctx) => {
      if (input.note) addMessage(s, 'staff', input.actor.userId, input.note, ctx.now);
      s.firstAnsweredAt ??= ctx.now;
      s.status = 'resolved';
      s.resolvedAt = ctx.now;
      s.resolveEpoch += 1;
      s.closesAt = addDays(ctx.now, AUTO_CLOSE_DAYS);
      ctx.timer('AutoClose', s.closesAt, `resolve-${s.resolveEpoch}`);
      tell(s, ctx, s.input.requesterUserId, 'resolved', `resolve-${s.resolveEpoch}`);
    },
  },
} satisfies ActionTable<SupportTicketState, SupportTicketInputs, SupportTicketRole>;

export const SUPPORT_TICKET_ACTIONS = actionsOf(SUPPORT_TICKET_TABLE);

export const isFinalSupportTicket = (s: Pick<SupportTicketState, 'status'>) => s.status === 'closed';
export function supportTicketFinished(s: Pick<SupportTicketState, 'status'>): MessageCode | null {
  return isFinalSupportTicket(s) ? 'supportTicketClosed' : null;
}

/**
 * A timer fired. FirstAnswerDue: nobody on staff has answered yet, so the admins are told (once).
 * AutoClose: the resolution it was set for still stands (no reply reopened it since).
 */
export function fireSupportTicketTimer(s: SupportTicketState, timer: CaseTimer, ctx: ChangeContext): boolean {
  if (timer.event === 'FirstAnswerDue') {
    if (s.firstAnsweredAt || s.escalatedAt || s.status !== 'awaiting_staff') return false;
    s.escalatedAt = ctx.now;
    for (const userId of s.input.adminUserIds) tell(s, ctx, userId, 'escalated', 'escalated');
    return true;
  }
  if (timer.event === 'AutoClose') {
    if (s.status !== 'resolved' || timer.token !== `resolve-${s.resolveEpoch}`) return false;
    s.status = 'closed';
    s.closedAt = ctx.now;
    return true;
  }
  return false;
}

export function supportTicketView(s: SupportTicketState, now: number): SupportTicketView {
  const i = s.input;
  return {
    ticketId: i.ticketId,
    requesterUserId: i.requesterUserId,
    requesterKind: i.requesterKind,
    householdId: i.householdId,
    organizationId: i.organizationId,
    category: i.category,
    subject: i.subject,
    case: i.case,
    status: s.status,
    messages: s.messages.map((m) => ({ ...m })),
    assigneeUserId: s.assigneeUserId,
    escalated: s.escalatedAt !== null,
    escalatedAt: s.escalatedAt,
    firstAnswerDueAt: s.firstAnswerDueAt,
    firstAnsweredAt: s.firstAnsweredAt,
    resolvedAt: s.resolvedAt,
    closesAt: s.closesAt,
    closedAt: s.closedAt,
    reopenCount: s.reopenCount,
    availableActions: availableActions(SUPPORT_TICKET_TABLE, SUPPORT_TICKET_ROLES, s, now, supportTicketFinished),
    createdAt: i.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}
