import type { SupportTicketInputs, SupportTicketRole, SupportTicketView } from '../domain/support-ticket.table';
import { SUPPORT_TICKET_ACTIONS } from '../domain/support-ticket.table';
import { caseMessages } from './case/messages';

/** Messages of the support-ticket workflow, generated from its action table (imported by the API). */
export const supportTicketMessages = caseMessages<SupportTicketInputs, SupportTicketRole, SupportTicketView>(SUPPORT_TICKET_ACTIONS);
export const supportTicketUpdates = supportTicketMessages.updates;
export const getSupportTicketView = supportTicketMessages.getView;
