import { log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
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

type Activities = ReturnType<typeof createActivities>;

/** Read-model writes and outbox inserts: short and idempotent, so retried until they succeed. */
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const supportTicketCase: CaseDefinition<SupportTicketState, SupportTicketInputs, SupportTicketRole, SupportTicketView, never> = {
  table: SUPPORT_TICKET_TABLE,
  messages: supportTicketMessages,
  finished: supportTicketFinished,
  isFinal: isFinalSupportTicket,
  view: supportTicketView,
  fire: fireSupportTicketTimer,
  // Escalated: the first answer is past due.
  search: (_s, v) => ({ kind: 'support-ticket', organizationId: v.organizationId, status: v.status, step: v.escalated ? 'escalated' : v.status, overdue: v.escalated && !v.firstAnsweredAt }),
  project: (view) => acts.projectSupportTicket(view),
  notify: (notice) => acts.sendNotice(notice),
  effects: {},
  // The history keeps who did what, never the text written (it is personal data, and in the view).
  note: () => undefined,
};

/**
 * One support ticket (issue 13): replies both ways, assignment and resolution by staff, the
 * first-answer escalation and the auto-close of a resolved ticket by durable timers. Born on the
 * case kit, so it has no version-1 branch.
 */
export async function supportTicket(input: StartSupportTicketInput): Promise<string> {
  const s = await runCase(supportTicketCase, initialSupportTicketState(input));
  log.info('support ticket closed', { workflowId: workflowInfo().workflowId, status: s.status });
  return s.status;
}
