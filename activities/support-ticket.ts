import { sql } from 'kysely';
import type { SupportTicketView } from '../domain';
import { dataCipher, sealJson } from '../infra/data-keys';
import type { Db } from '../infra/db/database';
import { supportTicketWorkflowId } from '../infra/temporal/ids';

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
  return { written: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}
