import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { announceTicketEvent } from '../../infra/db/repositories/support-ticket-projection';
import { multipart, tinyPdf } from '../helpers/household';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { listenToEvents, type ReceivedEvents } from '../helpers/event-stream';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
type Received = ReceivedEvents;
const EVENTS = '/api/SupportTicket/events';

/** Opens the ticket event stream over real HTTP (it never ends, so not through inject) and collects its events. */
function listen(baseUrl: string, who: Auth | null, query = ''): Promise<Received> {
  return listenToEvents(`${baseUrl}${EVENTS}${query}`, who);
}

/** Live ticket pages, by server-sent events fed by PostgreSQL LISTEN/NOTIFY, naming only the ticket. */
describe('live support ticket events', () => {
  let stack: Stack;
  let replica: FastifyInstance;
  let replicaUrl: string;
  let tenant: Auth;
  let applicant: Auth;
  let ambassador: Auth;
  let manager: Auth;
  let admin: Auth;
  let stranger: Auth;
  const open: Received[] = [];

  beforeAll(async () => {
    stack = await startStack({ listen: true });
    // A second API replica on the same database: a change made through one reaches pages streaming from the other.
    replica = await buildApp({ config: stack.config, db: stack.db, temporal: stack.temporal, blobs: stack.blobs });
    await replica.listen({ port: 0, host: '127.0.0.1' });
    replicaUrl = `http://127.0.0.1:${(replica.server.address() as AddressInfo).port}`;
    [tenant, applicant, ambassador, manager, admin] = await Promise.all([
      signIn(stack.app, 'Tenant'),
      signIn(stack.app, 'User'),
      signIn(stack.app, 'HousingAmbassador'),
      signIn(stack.app, 'Manager'),
      signIn(stack.app, 'Admin'),
    ]);
    stranger = await otherOrganizationManager(stack);
  });
  afterAll(async () => {
    for (const r of open) r.stop();
    await replica?.close();
    await stack?.close();
  });

  const track = (r: Received) => (open.push(r), r);
  const tickets = (r: Received) => r.events.filter((e) => e.event === 'ticket').map((e) => e.data);

  /**
   * A barrier on one stream: a notice on the same channel addressed to that stream's user, announced
   * now, and waited for. A replica passes the notices of its one LISTEN connection on in the order
   * PostgreSQL delivers them (commit order), so once the barrier has arrived, any earlier notice
   * meant for the stream has arrived too. Returns the barrier's ticket id.
   */
  async function barrier(stream: Received, who: Auth): Promise<string> {
    const ticketId = randomUUID();
    await announceTicketEvent(stack.db, { ticketId, requesterUserId: who.userId, householdId: null, organizationId: null });
    await expect.poll(() => tickets(stream)).toContainEqual({ ticketId });
    return ticketId;
  }

  it('refuses the signed out and any query, with a 4xx in the envelope', async () => {
    expect((await listen(stack.baseUrl, null)).status).toBe(401);
    const withToken = await fetch(`${stack.baseUrl}${EVENTS}?access_token=x`, { headers: { authorization: tenant.authorization } });
    expect(withToken.status).toBe(400);
    expect(await withToken.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
  });

  it('a reply through one replica is heard by the other side on another replica, by ticket id only, and not by another organisation', async () => {
    const tenantStream = track(await listen(stack.baseUrl, tenant));
    const managerStream = track(await listen(replicaUrl, manager));
    const adminStream = track(await listen(replicaUrl, admin));
    const strangerStream = track(await listen(replicaUrl, stranger));
    const applicantStream = track(await listen(stack.baseUrl, applicant));
    const ambassadorStream = track(await listen(stack.baseUrl, ambassador));

    // Opened through the first replica: the organisation's queue hears of it on the other.
    const created = await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/CreateSupportTicket', headers: tenant, payload: { category: 'other', subject: 'Calefacción', message: 'No funciona la calefacción.' } });
    expect(created.statusCode).toBe(201);
    const ticketId = created.json().data.ticketId as string;
    await expect.poll(() => tickets(managerStream)).toContainEqual({ ticketId });

    // The manager answers through the replica; the tenant's page on the first replica hears it.
    const before = tickets(tenantStream).length;
    const answered = await replica.inject({ method: 'POST', url: '/api/SupportTicket/AddReplyToTicket', headers: manager, payload: { ticketId, message: 'Mañana vamos.' } });
    expect(answered.statusCode).toBe(200);
    await expect.poll(() => tickets(tenantStream).length).toBeGreaterThan(before);
    expect(tickets(tenantStream).at(-1)).toEqual({ ticketId });
    // And the tenant's reply through the first replica reaches the manager on the replica.
    const heard = tickets(managerStream).length;
    expect((await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/AddReplyToTicket', headers: tenant, payload: { ticketId, message: 'Gracias.' } })).statusCode).toBe(200);
    await expect.poll(() => tickets(managerStream).length).toBeGreaterThan(heard);
    await expect.poll(() => tickets(adminStream)).toContainEqual({ ticketId });

    // An ambassador's own ticket reaches the ambassador (no household).
    const own = await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/CreateSupportTicket', headers: ambassador, payload: { category: 'account', subject: 'Acceso', message: 'No veo a mis residentes.' } });
    expect(own.statusCode).toBe(201);
    await expect.poll(() => tickets(ambassadorStream)).toContainEqual({ ticketId: own.json().data.ticketId });

    // Every notice of the tenant's ticket has been announced (the manager heard the last one). Once a
    // later notice has reached each other stream, another organisation's manager and another household
    // have heard nothing of the tenant's ticket.
    const marks = [await barrier(strangerStream, stranger), await barrier(applicantStream, applicant), await barrier(ambassadorStream, ambassador)];
    expect(tickets(strangerStream)).toEqual([{ ticketId: marks[0] }]);
    expect(tickets(applicantStream)).toEqual([{ ticketId: marks[1] }]);
    expect(tickets(ambassadorStream)).not.toContainEqual({ ticketId });
    // Nothing but the id: neither the words nor who asked.
    const wire = JSON.stringify([tenantStream.events, managerStream.events, adminStream.events]);
    for (const secret of ['calefacción', 'Mañana', 'Gracias', tenant.userId]) expect(wire).not.toContain(secret);
    for (const e of [...tickets(managerStream), ...tickets(tenantStream)]) expect(Object.keys(e as object)).toEqual(['ticketId']);
  });

  it('a reply with a file is announced again once the file is stored, so the open page finds it', async () => {
    const managerStream = track(await listen(replicaUrl, manager));
    const created = await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/CreateSupportTicket', headers: tenant, payload: { category: 'documents', subject: 'Recibo', message: 'Va el recibo.' } });
    const ticketId = created.json().data.ticketId as string;
    await expect.poll(() => tickets(managerStream)).toContainEqual({ ticketId });
    const before = tickets(managerStream).length;
    const m = multipart({ ticketId, message: 'Aquí está.' }, [{ name: 'recibo.pdf', body: tinyPdf() }]);
    const replied = await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/AddReplyToTicket', payload: m.payload, headers: { ...m.headers, ...tenant } });
    expect(replied.statusCode).toBe(200);
    // The reply's notice, then the files' notice: after the last one the file is there to read.
    await expect.poll(() => tickets(managerStream).length).toBeGreaterThanOrEqual(before + 2);
    const detail = (await replica.inject({ url: `/api/SupportTicket/GetSupportTicketById/${ticketId}`, headers: manager })).json().data;
    expect(detail.attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['recibo.pdf']);
  });

  it('a closing replica ends its ticket streams', async () => {
    const extra = await buildApp({ config: stack.config, db: stack.db, temporal: stack.temporal, blobs: stack.blobs });
    await extra.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(extra.server.address() as AddressInfo).port}`;
    const stream = await listen(url, manager);
    expect(extra.chatEvents.size).toBe(1);
    await extra.close();
    expect(extra.chatEvents.size).toBe(0);
    stream.stop();
  });
});
