import { sql } from 'kysely';
import { OPEN_SUPPORT_TICKET_STATUSES, type Page, type SupportTicketListItem, type SupportTicketListQuery } from '../../domain';
import { dataCipher } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import type { Session } from '../session';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';

/** Newest activity first, then the id: every filter below has an index ending in (last_activity_at, id). */
const KEYSET: Keyset = { keys: [{ expr: sql.ref('t.last_activity_at'), type: 'timestamptz' }], id: sql.ref('t.id'), idType: 'uuid' };
const TAG = 'support-tickets';

/**
 * `GET GetSupportTickets`: a requester's own tickets (a resident's, applicant's or ambassador's);
 * a manager's organisation's queue; every ticket for an admin. Filters: status ('open' for both
 * open statuses), category, assigned to me, escalated, and the case a ticket was opened from.
 */
export async function listTickets(db: Db, session: Session, q: SupportTicketListQuery): Promise<Page<SupportTicketListItem>> {
  const after = decodeCursor(q.cursor, KEYSET, TAG);
  let query = db
    .selectFrom('support_tickets as t')
    .innerJoin('users as u', 'u.id', 't.requester_user_id')
    .select([
      't.id',
      't.subject_encrypted',
      't.category',
      't.status',
      't.organization_id',
      't.case_kind',
      't.case_id',
      't.assignee_user_id',
      't.escalated',
      't.first_answer_due_at',
      't.last_activity_at',
      't.created_at',
      'u.first_name',
      'u.last_name',
      ...keysetSelections(KEYSET),
    ]);
  if (session.role === 'Manager') {
    // A manager without an organisation has no queue (never every ticket with no organisation).
    query = query.where('t.organization_id', '=', sql<string>`(select organization_id from users where id = ${session.userId})`);
  } else if (session.role !== 'Admin') {
    query = query.where('t.requester_user_id', '=', session.userId);
  }
  if (q.status === 'open') query = query.where('t.status', 'in', [...OPEN_SUPPORT_TICKET_STATUSES]);
  else if (q.status) query = query.where('t.status', '=', q.status);
  if (q.category) query = query.where('t.category', '=', q.category);
  if (q.assignedToMe) query = query.where('t.assignee_user_id', '=', session.userId);
  if (q.escalated !== undefined) query = query.where('t.escalated', '=', q.escalated);
  if (q.caseId) query = query.where('t.case_id', '=', q.caseId);
  if (after) query = query.where(keysetAfter(KEYSET, 'desc', after));
  const rows = await orderByKeyset(query, KEYSET, 'desc')
    .limit(q.limit + 1)
    .execute();
  const cipher = dataCipher();
  return toPage(rows, q.limit, KEYSET, TAG, (r) => ({
    ticketId: r.id,
    subject: cipher.decrypt(r.subject_encrypted),
    category: r.category,
    status: r.status,
    requesterName: `${r.first_name} ${r.last_name}`,
    organizationId: r.organization_id,
    caseKind: r.case_kind,
    caseId: r.case_id,
    assigneeUserId: r.assignee_user_id,
    escalated: r.escalated,
    firstAnswerDueAt: new Date(r.first_answer_due_at).toISOString(),
    lastActivityAt: new Date(r.last_activity_at).toISOString(),
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
