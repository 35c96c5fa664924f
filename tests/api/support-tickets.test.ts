import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
const BASE = '/api/SupportTicket';
const ticket = (over: Record<string, unknown> = {}) => ({ category: 'documents', subject: 'Pay stub upload', message: 'The page does not take my PDF.', ...over });

/** Spec section 7 "Support tickets" on the real stack: every route, its guards and bad input. */
describe('support tickets through the API', () => {
  let stack: Stack;
  let tenant: Auth;
  let applicant: Auth;
  let ambassador: Auth;
  let manager: Auth;
  let admin: Auth;
  let stranger: Auth;
  let orgId: string;

  beforeAll(async () => {
    stack = await startStack();
    [tenant, applicant, ambassador, manager, admin] = await Promise.all([
      signIn(stack.app, 'Tenant'),
      signIn(stack.app, 'User'),
      signIn(stack.app, 'HousingAmbassador'),
      signIn(stack.app, 'Manager'),
      signIn(stack.app, 'Admin'),
    ]);
    stranger = await otherOrganizationManager(stack);
    orgId = (await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow()).organization_id!;
  });
  afterAll(() => stack?.close());

  const get = (url: string, headers?: Auth) => stack.app.inject({ url, ...(headers ? { headers } : {}) });
  const post = (url: string, headers: Auth | undefined, payload?: object) => stack.app.inject({ method: 'POST', url, ...(headers ? { headers } : {}), ...(payload ? { payload } : {}) });
  const count = async () => Number((await stack.db.selectFrom('support_tickets').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const create = async (who: Auth, body: object = ticket()) => {
    const res = await post(`${BASE}/CreateSupportTicket`, who, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { ticketId: string; status: string; organizationId: string | null };
  };
  const list = async (who: Auth, query = '') => (await get(`${BASE}/GetSupportTickets${query}`, who)).json().data as { items: { ticketId: string; subject: string; status: string }[]; nextCursor: string | null };

  it('refuses strangers and bad input with a 4xx in the envelope, saving nothing', async () => {
    const before = await count();
    expect((await post(`${BASE}/CreateSupportTicket`, undefined, ticket())).statusCode).toBe(401);
    expect((await get(`${BASE}/GetSupportTickets`)).statusCode).toBe(401);
    // Tickets are opened by residents, applicants and ambassadors (spec section 6), not by staff.
    for (const who of [manager, admin]) expect((await post(`${BASE}/CreateSupportTicket`, who, ticket())).statusCode).toBe(403);
    const bad = [
      ticket({ message: '' }),
      ticket({ message: 'x'.repeat(4001) }),
      ticket({ category: 'gossip' }),
      ticket({ subject: undefined }),
      ticket({ caseKind: 'lease_up' }),
      ticket({ caseKind: 'lease_up', caseId: 'not-a-uuid' }),
      ticket({ extra: true }),
    ];
    for (const body of bad) {
      const res = await post(`${BASE}/CreateSupportTicket`, tenant, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
      expect(typeof res.json().message).toBe('string');
    }
    expect(res400(await post(`${BASE}/CreateSupportTicket`, tenant, ticket({ message: '   ' })))).toBe('Please write a message');
    // A case that does not exist, or is another household's.
    expect((await post(`${BASE}/CreateSupportTicket`, tenant, ticket({ caseKind: 'relocation', caseId: randomUUID() }))).statusCode).toBe(404);
    expect((await get(`${BASE}/GetSupportTickets?status=lost`, tenant)).statusCode).toBe(400);
    expect((await get(`${BASE}/GetSupportTickets?cursor=forged`, tenant)).statusCode).toBe(400);
    expect((await get(`${BASE}/GetSupportTicketById/nope`, tenant)).statusCode).toBe(400);
    expect((await get(`${BASE}/GetSupportTicketById/${randomUUID()}`, tenant)).statusCode).toBe(404);
    expect((await post(`${BASE}/AddReplyToTicket`, tenant, { ticketId: randomUUID(), message: 'hi' })).statusCode).toBe(404);
    expect((await post(`${BASE}/AddReplyToTicket`, tenant, { ticketId: randomUUID() })).statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('a tenant opens a ticket; the managers of its organisation and admins answer, assign and resolve; nobody else sees it', async () => {
    const opened = await create(tenant, ticket({ subject: 'Mi talón de pago', message: 'La página no acepta mi PDF.' }));
    expect(opened).toMatchObject({ status: 'awaiting_staff', organizationId: orgId });
    const id = opened.ticketId;
    // The subject and the thread are sealed at rest.
    const row = await stack.db.selectFrom('support_tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toMatch(/talón|PDF/);

    expect((await list(tenant)).items.map((t) => t.ticketId)).toContain(id);
    expect((await list(tenant)).items.find((t) => t.ticketId === id)?.subject).toBe('Mi talón de pago');
    expect((await list(manager)).items.map((t) => t.ticketId)).toContain(id);
    expect((await list(admin)).items.map((t) => t.ticketId)).toContain(id);
    for (const who of [applicant, ambassador, stranger]) {
      expect((await list(who)).items.map((t) => t.ticketId)).not.toContain(id);
      expect((await get(`${BASE}/GetSupportTicketById/${id}`, who)).statusCode).toBe(403);
      expect((await post(`${BASE}/AddReplyToTicket`, who, { ticketId: id, message: 'hola' })).statusCode).toBe(403);
    }
    const detail = (await get(`${BASE}/GetSupportTicketById/${id}`, tenant)).json().data;
    expect(detail).toMatchObject({ side: 'requester', linkedCase: null, ticket: { status: 'awaiting_staff', messages: [{ side: 'requester', body: 'La página no acepta mi PDF.' }] } });

    // The manager answers; the tenant is told in their language; the tenant replies.
    let res = await post(`${BASE}/AddReplyToTicket`, manager, { ticketId: id, message: 'Intente con un archivo más pequeño.' });
    expect(res.json().data).toMatchObject({ status: 'awaiting_requester' });
    await eventually(async () => stack.db.selectFrom('notification_outbox').select('id').where('user_id', '=', tenant.userId).where('template', '=', 'support-ticket').executeTakeFirst());
    res = await post(`${BASE}/AddReplyToTicket`, tenant, { ticketId: id, message: 'Gracias, ya funciona.' });
    expect(res.json().data).toMatchObject({ status: 'awaiting_staff' });
    expect((await list(manager, '?status=awaiting_staff')).items.map((t) => t.ticketId)).toContain(id);
    expect((await list(manager, '?status=awaiting_requester')).items.map((t) => t.ticketId)).not.toContain(id);

    // Staff-only actions, with their own guards and checks.
    expect((await post(`${BASE}/${id}/assign`, tenant, { assigneeUserId: manager.userId })).statusCode).toBe(403);
    expect((await post(`${BASE}/${id}/assign`, stranger, { assigneeUserId: stranger.userId })).statusCode).toBe(403);
    res = await post(`${BASE}/${id}/assign`, manager, { assigneeUserId: stranger.userId });
    expect(res.statusCode).toBe(422);
    expect(res.json().data.code).toBe('notStaffOfOrganization');
    expect((await post(`${BASE}/${id}/assign`, manager, { assigneeUserId: 'x' })).statusCode).toBe(400);
    expect((await post(`${BASE}/${id}/assign`, manager, { assigneeUserId: manager.userId })).json().data.assigneeUserId).toBe(manager.userId);
    expect((await list(manager, '?assignedToMe=true')).items.map((t) => t.ticketId)).toEqual([id]);
    expect((await post(`${BASE}/${id}/resolve`, tenant, {})).statusCode).toBe(403);
    res = await post(`${BASE}/${id}/resolve`, admin, { note: 'Solved on the phone.' });
    expect(res.json().data).toMatchObject({ status: 'resolved' });
    res = await post(`${BASE}/AddReplyToTicket`, manager, { ticketId: id, message: 'One more thing' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 409, data: { code: 'supportTicketResolved' } });
    // A reply reopens it.
    res = await post(`${BASE}/AddReplyToTicket`, tenant, { ticketId: id, message: 'It broke again.' });
    expect(res.json().data).toMatchObject({ status: 'awaiting_staff', reopenCount: 1 });
    expect((await get(`${BASE}/GetSupportTicketById/${id}`, manager)).json().data.ticket.messages.map((m: { side: string }) => m.side)).toEqual([
      'requester', 'staff', 'requester', 'staff', 'requester',
    ]);
  });

  it("'contact support' from an application links the ticket to the case and sends it to the case's organisation", async () => {
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', applicant.userId).executeTakeFirstOrThrow();
    const opportunity = await stack.db.selectFrom('opportunities').select(['id', 'name']).where('organization_id', '=', orgId).executeTakeFirstOrThrow();
    const applicationId = leaseUpApplicationId(opportunity.id, household.id);
    await stack.db
      .insertInto('applications')
      .values({
        id: applicationId, workflow_id: leaseUpWorkflowId(applicationId), household_id: household.id, opportunity_id: opportunity.id, organization_id: orgId,
        applicant_user_id: applicant.userId, log_number: 'LOG-T-1', status: 'in_review', current_step: 'documentation_review', pending_tasks: '[]',
        household_size: 2, household_income: 52_000, applied_at: new Date(), state_updated_at: new Date(), state_version: 1,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    // Only the household's own case: not the tenant's, not an ambassador's.
    expect((await post(`${BASE}/CreateSupportTicket`, tenant, ticket({ caseKind: 'lease_up', caseId: applicationId }))).statusCode).toBe(403);
    expect((await post(`${BASE}/CreateSupportTicket`, ambassador, ticket({ caseKind: 'lease_up', caseId: applicationId }))).statusCode).toBe(403);
    const opened = await create(applicant, ticket({ category: 'application', subject: 'My appointment', caseKind: 'lease_up', caseId: applicationId }));
    // The applicant has no organisation of their own: the case's organisation answers.
    expect(opened.organizationId).toBe(orgId);
    expect((await list(applicant, `?caseId=${applicationId}`)).items.map((t) => t.ticketId)).toEqual([opened.ticketId]);
    expect((await list(tenant, `?caseId=${applicationId}`)).items).toEqual([]);
    const seen = (await get(`${BASE}/GetSupportTicketById/${opened.ticketId}`, manager)).json().data;
    expect(seen).toMatchObject({ side: 'staff', linkedCase: { kind: 'lease_up', id: applicationId, status: 'in_review', step: 'documentation_review', logNumber: 'LOG-T-1', title: opportunity.name } });
    expect((await get(`${BASE}/GetSupportTicketById/${opened.ticketId}`, stranger)).statusCode).toBe(403);
  });

  it("an ambassador's ticket goes to the ambassador's organisation; lists page by cursor and filter", async () => {
    const mine = await create(ambassador, ticket({ category: 'account', subject: 'Organisation access' }));
    expect(mine.organizationId).not.toBeNull();
    const made = [await create(tenant, ticket({ subject: 'one', category: 'other' })), await create(tenant, ticket({ subject: 'two', category: 'other' })), await create(tenant, ticket({ subject: 'three', category: 'other' }))];
    const first = await list(tenant, '?category=other&limit=2');
    expect(first.items.map((t) => t.subject)).toEqual(['three', 'two']);
    expect(first.nextCursor).toBeTruthy();
    const second = await list(tenant, `?category=other&limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((t) => t.subject)).toEqual(['one']);
    expect(second.nextCursor).toBeNull();
    expect((await list(tenant, '?status=open&category=other')).items).toHaveLength(made.length);
    expect((await list(manager, '?escalated=true')).items).toEqual([]);
  });
});

function res400(res: { statusCode: number; json(): { message: string } }): string {
  expect(res.statusCode).toBe(400);
  return res.json().message;
}
