import { sql } from 'kysely';
import type { SupportTicketView } from '../../../domain';
import { dataCipher, sealJson } from '../../data-keys';
import type { Db } from '../database';
import { supportTicketWorkflowId } from '../../temporal/ids';

/**
 * Writes a ticket's view into its `support_tickets` row. Version-guarded and idempotent: the same
 * view twice writes nothing the second time, and a late older one never overwrites a newer state.
 * The subject and the view (the thread) are sealed with the data key. The API writes the first
 * version itself before the run starts, and each answered view at once, so lists follow at once.
 */
export async function projectSupportTicket(db: Db, view: SupportTicketView): Promise<{ written: boolean }> {
  const last = view.messages.at(-1);
  const lastActivityAt = [view.updatedAt, last?.at ?? view.createdAt].sort().at(-1)!;
  const row = {
    id: view.ticketId,
    workflow_id: supportTicketWorkflowId(view.ticketId),
    requester_user_id: view.requesterUserId,
    requester_kind: view.requesterKind,
    household_id: view.householdId,
    organization_id: view.organizationId,
    category: view.category,
    subject_encrypted: dataCipher().encrypt(view.subject),
    status: view.status,
    case_kind: view.case?.kind ?? null,
    case_id: view.case?.id ?? null,
    assignee_user_id: view.assigneeUserId,
    escalated: view.escalated,
    first_answer_due_at: view.firstAnswerDueAt,
    last_activity_at: lastActivityAt,
    created_at: view.createdAt,
    state_version: view.version,
    view: sealJson(view),
  };
  const changing = ['status', 'assignee_user_id', 'escalated', 'last_activity_at', 'state_version', 'view'] as const;
  const result = await db
    .insertInto('support_tickets')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ ...Object.fromEntries(changing.map((c) => [c, sql.ref(`excluded.${c}`)])), projected_at: sql`now()` } as never)
        .where('support_tickets.state_version', '<', sql.ref('excluded.state_version') as never),
    )
    .executeTakeFirst();
  const written = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (written) await announceTicketEvent(db, { ticketId: view.ticketId, requesterUserId: view.requesterUserId, householdId: view.householdId, organizationId: view.organizationId });
  return { written };
}

/**
 * Live ticket pages: each projected change of a ticket is announced with PostgreSQL
 * NOTIFY; every API replica LISTENs (api/plugins/chat-events.ts) and tells the open pages of the
 * requester and of the ticket's staff, naming only the ticket (they fetch it through its guarded route).
 */
export const TICKET_EVENTS_CHANNEL = 'support_ticket_events';

export interface TicketEvent {
  ticketId: string;
  requesterUserId: string;
  householdId: string | null;
  organizationId: string | null;
}

export async function announceTicketEvent(db: Db, event: TicketEvent): Promise<void> {
  await sql`select pg_notify(${TICKET_EVENTS_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
}

/** Reads a notice's payload; anything else on the channel is ignored. */
export function parseTicketEvent(payload: string | undefined): TicketEvent | null {
  try {
    const v = JSON.parse(payload ?? '') as Partial<TicketEvent>;
    const idOrNull = (x: unknown) => x === null || typeof x === 'string';
    if (typeof v.ticketId !== 'string' || typeof v.requesterUserId !== 'string' || !idOrNull(v.householdId) || !idOrNull(v.organizationId)) return null;
    return { ticketId: v.ticketId, requesterUserId: v.requesterUserId, householdId: v.householdId ?? null, organizationId: v.organizationId ?? null };
  } catch {
    return null;
  }
}
