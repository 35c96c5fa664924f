import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { sql } from 'kysely';
import {
  initialSupportTicketState,
  supportTicketView,
  type CreateSupportTicketBody,
  type StartSupportTicketInput,
  type SupportCaseKind,
  type SupportTicketAction,
  type SupportTicketInputs,
  type SupportTicketRole,
  type SupportTicketView,
} from '../../domain';
import { projectSupportTicket } from '../../infra/db/repositories/support-ticket-projection';
import { openJson } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { supportTicketWorkflowId } from '../../infra/temporal/ids';
import { forbidden, notFound, unprocessable } from '../errors';
import type { Session } from '../session';
import { SUPPORT_TICKET_KIND } from './case-kinds';
import { actOnCase, onCaseOf, readView } from './cases';

export interface SupportDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/** The read model of each case kind a ticket can be opened from. */
const CASE_TABLES: Record<SupportCaseKind, 'applications' | 'recertification_cases' | 'relocation_cases'> = {
  lease_up: 'applications',
  recertification: 'recertification_cases',
  relocation: 'relocation_cases',
};

/** The case a ticket is opened from: it must be the caller's household's (403), and exist (404). */
async function caseOwners(db: Db, kind: SupportCaseKind, caseId: string): Promise<{ householdId: string; organizationId: string } | null> {
  const row = await db
    .selectFrom(`${CASE_TABLES[kind]} as c` as 'applications as c')
    .select(['c.household_id', 'c.organization_id'])
    .where('c.id', '=', caseId)
    .executeTakeFirst();
  return row ? { householdId: row.household_id, organizationId: row.organization_id } : null;
}

/** Staff who answer an organisation's tickets (its managers) and its admins; the portal's admins when there is no organisation. */
async function staffOf(db: Db, organizationId: string | null): Promise<{ staff: string[]; admins: string[] }> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'role', 'organization_id'])
    .where('role', 'in', ['Manager', 'Admin'])
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('role', '=', 'Admin'), ...(organizationId ? [eb('organization_id', '=', organizationId)] : [])]))
    .orderBy('id')
    .execute();
  const admins = users.filter((u) => u.role === 'Admin');
  const orgAdmins = admins.filter((u) => organizationId && u.organization_id === organizationId);
  const managers = users.filter((u) => u.role === 'Manager');
  const escalateTo = (orgAdmins.length ? orgAdmins : admins).map((u) => u.id);
  return { staff: organizationId && managers.length ? managers.map((u) => u.id) : escalateTo, admins: escalateTo };
}

/**
 * `POST CreateSupportTicket`: the caller (a resident, applicant or ambassador) opens a ticket; from
 * a case ('contact support'), the case must be their household's, and its organisation answers.
 * The first version is written before the run starts, so the ticket is in lists at once.
 */
export async function createTicket(deps: SupportDeps, session: Session, body: CreateSupportTicketBody, now = new Date()): Promise<SupportTicketView> {
  const me = await deps.db
    .selectFrom('users as u')
    .leftJoin('households as h', 'h.head_user_id', 'u.id')
    .select(['u.organization_id', 'h.id as household_id', 'h.organization_id as household_organization_id'])
    .where('u.id', '=', session.userId)
    .executeTakeFirst();
  if (!me) throw forbidden();
  const ambassador = session.role === 'HousingAmbassador';
  let organizationId = ambassador ? me.organization_id : (me.household_organization_id ?? me.organization_id);
  let linked: StartSupportTicketInput['case'] = null;
  if (body.caseKind && body.caseId) {
    const owners = await caseOwners(deps.db, body.caseKind, body.caseId);
    if (!owners) throw notFound();
    if (ambassador || !me.household_id || owners.householdId !== me.household_id) throw forbidden();
    organizationId = owners.organizationId;
    linked = { kind: body.caseKind, id: body.caseId };
  }
  const { staff, admins } = await staffOf(deps.db, organizationId);
  const input: StartSupportTicketInput = {
    ticketId: randomUUID(),
    requesterUserId: session.userId,
    requesterKind: ambassador ? 'ambassador' : 'resident',
    householdId: ambassador ? null : me.household_id,
    organizationId,
    category: body.category,
    subject: body.subject,
    message: body.message,
    case: linked,
    staffUserIds: staff,
    adminUserIds: admins,
    createdAt: now.toISOString(),
  };
  const view = supportTicketView(initialSupportTicketState(input), now.getTime());
  await projectSupportTicket(deps.db, view);
  try {
    await deps.temporal.workflow.start('supportTicket', {
      workflowId: supportTicketWorkflowId(input.ticketId),
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [input],
    });
  } catch (error) {
    // No run, no ticket: the row would otherwise wait for an answer nobody can give.
    await deps.db.deleteFrom('support_tickets').where('id', '=', input.ticketId).execute();
    throw error;
  }
  return view;
}

interface TicketAccess {
  role: SupportTicketRole;
  organizationId: string | null;
  projected: SupportTicketView;
}

/**
 * The caller's side on a ticket: its requester, or staff (a manager of its organisation, or an
 * admin). Anyone else, a manager of another organisation included, is refused (403); unknown: 404.
 */
export async function ticketAccess(db: Db, session: Session, ticketId: string): Promise<TicketAccess> {
  const row = await db
    .selectFrom('support_tickets as t')
    .select(['t.requester_user_id', 't.organization_id', 't.view', sql<string | null>`(select organization_id from users where id = ${session.userId})`.as('caller_org')])
    .where('t.id', '=', ticketId)
    .executeTakeFirst();
  if (!row) throw notFound();
  const projected = openJson<SupportTicketView>(row.view);
  if (row.requester_user_id === session.userId) return { role: 'requester', organizationId: row.organization_id, projected };
  const staff = session.role === 'Admin' || (session.role === 'Manager' && row.organization_id !== null && row.caller_org === row.organization_id);
  if (!staff) throw forbidden();
  return { role: 'staff', organizationId: row.organization_id, projected };
}

/** `GET GetSupportTicketById/{id}`: the ticket (the workflow's view while it runs) and the caller's side. */
export async function ticketDetail(deps: Pick<SupportDeps, 'db' | 'temporal'>, session: Session, ticketId: string) {
  const access = await ticketAccess(deps.db, session, ticketId);
  const view = await readView(deps, SUPPORT_TICKET_KIND, ticketId, access.projected);
  return { ticket: view, side: access.role, linkedCase: view.case ? await caseSummary(deps.db, view.case) : null };
}

/** What staff see of the linked case beside the ticket (and the requester on it): its kind, status and step. */
async function caseSummary(db: Db, c: { kind: SupportCaseKind; id: string }) {
  if (c.kind === 'lease_up') {
    const row = await db
      .selectFrom('applications as a')
      .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
      .select(['a.status', 'a.current_step', 'a.log_number', 'o.name'])
      .where('a.id', '=', c.id)
      .executeTakeFirst();
    return row ? { ...c, status: row.status, step: row.current_step, logNumber: row.log_number, title: row.name } : { ...c, status: null, step: null, logNumber: null, title: null };
  }
  if (c.kind === 'recertification') {
    const row = await db.selectFrom('recertification_cases').select(['status', 'stage', 'kind']).where('id', '=', c.id).executeTakeFirst();
    return { ...c, status: row?.status ?? null, step: row?.stage ?? null, logNumber: null, title: row?.kind ?? null };
  }
  const row = await db.selectFrom('relocation_cases').select(['status']).where('id', '=', c.id).executeTakeFirst();
  return { ...c, status: row?.status ?? null, step: row?.status ?? null, logNumber: null, title: null };
}

/**
 * Carries one action to the ticket as the Update of its name (the workflow decides); the case
 * service writes the answered view at once, so the lists show it without waiting for the projection activity.
 */
export async function actOnTicket<A extends SupportTicketAction>(
  deps: Pick<SupportDeps, 'db' | 'temporal'>,
  session: Session,
  ticketId: string,
  action: A,
  input: SupportTicketInputs[A],
  known?: TicketAccess,
): Promise<SupportTicketView> {
  const access = known ?? (await ticketAccess(deps.db, session, ticketId));
  const assignee = action === 'Assign' ? (input as SupportTicketInputs['Assign']).assigneeUserId : null;
  return actOnCase(deps, SUPPORT_TICKET_KIND, ticketId, action, input, onCaseOf(session, access.role, access.projected), async () => {
    if (assignee) await assertStaff(deps.db, access.organizationId, assignee);
  });
}

/** `POST AddReplyToTicket`: the requester's reply (reopens a resolved ticket) or a staff answer. */
export async function replyToTicket(deps: Pick<SupportDeps, 'db' | 'temporal'>, session: Session, ticketId: string, message: string): Promise<SupportTicketView> {
  const access = await ticketAccess(deps.db, session, ticketId);
  return access.role === 'requester'
    ? actOnTicket(deps, session, ticketId, 'Reply', { message }, access)
    : actOnTicket(deps, session, ticketId, 'Answer', { message }, access);
}

/** A ticket is given only to staff of its organisation (a manager of it, or an admin). */
async function assertStaff(db: Db, organizationId: string | null, userId: string): Promise<void> {
  const user = await db.selectFrom('users').select(['role', 'organization_id']).where('id', '=', userId).executeTakeFirst();
  const ok = user && (user.role === 'Admin' || (user.role === 'Manager' && organizationId !== null && user.organization_id === organizationId));
  if (!ok) throw unprocessable('notStaffOfOrganization');
}
