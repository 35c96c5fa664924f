import { log, workflowInfo } from '@temporalio/workflow';
import { writes } from './activity-proxies';
import {
  SUPPORT_TICKET_TABLE,
  fireSupportTicketTimer,
  initialSupportTicketState,
  isFinalSupportTicket,
  supportTicketFinished,
  supportTicketView,
  type StartSupportTicketInput,
  type SupportTicketInputs,
  type SupportTicketRole,
  type SupportTicketState,
  type SupportTicketView,
} from '../domain/support-ticket.table';
import { runCase, type CaseDefinition } from './case/run';
import { supportTicketMessages } from './support-ticket.messages';

const supportTicketCase: CaseDefinition<SupportTicketState, SupportTicketInputs, SupportTicketRole, SupportTicketView, never> = {
  table: SUPPORT_TICKET_TABLE,
  messages: supportTicketMessages,
  finished: supportTicketFinished,
  isFinal: isFinalSupportTicket,
  view: supportTicketView,
  fire: fireSupportTicketTimer,
  // Escalated: the first answer is past due.
  search: (_s, v) => ({ kind: 'support-ticket', organizationId: v.organizationId, status: v.status, step: v.escalated ? 'escalated' : v.status, overdue: v.escalated && !v.firstAnsweredAt }),
  project: (view) => writes.projectSupportTicket(view),
  notify: (notice) => writes.sendNotice(notice),
  effects: {},
  // The history keeps who did what, never the text written (it is personal data, and in the view).
  note: () => undefined,
};

/**
 * One support ticket: replies both ways, assignment and resolution by staff, the first-answer
 * escalation and the auto-close of a resolved ticket by durable timers.
 */
export async function supportTicket(input: StartSupportTicketInput): Promise<string> {
  const s = await runCase(supportTicketCase, initialSupportTicketState(input));
  log.info('support ticket closed', { workflowId: workflowInfo().workflowId, status: s.status });
  return s.status;
}
