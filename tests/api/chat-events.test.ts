import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { listenToEvents, type ReceivedEvents } from '../helpers/event-stream';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
type Received = ReceivedEvents;

/** Opens `GET /api/Chat/events` over real HTTP (a stream never ends, so not through inject) and collects its events. */
function listen(baseUrl: string, who: Auth | null, query = ''): Promise<Received> {
  return listenToEvents(`${baseUrl}/api/Chat/events${query}`, who);
}

/** Live delivery through server-sent events fed by PostgreSQL LISTEN/NOTIFY. */
describe('live chat events', () => {
  let stack: Stack;
  let replica: FastifyInstance;
  let replicaUrl: string;
  let tenant: Auth;
  let applicant: Auth;
  let manager: Auth;
  let stranger: Auth;
  let ambassador: Auth;
  let admin: Auth;
  let householdId: string;
  let orgId: string;
  const open: Received[] = [];

  beforeAll(async () => {
    stack = await startStack({ listen: true });
    // A second API replica on the same database: a message written through one reaches pages streaming from the other.
    replica = await buildApp({ config: stack.config, db: stack.db, temporal: stack.temporal, blobs: stack.blobs });
    await replica.listen({ port: 0, host: '127.0.0.1' });
    replicaUrl = `http://127.0.0.1:${(replica.server.address() as AddressInfo).port}`;
    [tenant, applicant, manager, ambassador, admin] = await Promise.all([signIn(stack.app, 'Tenant'), signIn(stack.app, 'User'), signIn(stack.app, 'Manager'), signIn(stack.app, 'HousingAmbassador'), signIn(stack.app, 'Admin')]);
    stranger = await otherOrganizationManager(stack);
    const h = await stack.db.selectFrom('households').select(['id', 'organization_id']).where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow();
    householdId = h.id;
    orgId = h.organization_id!;
  });
  afterAll(async () => {
    for (const r of open) r.stop();
    await replica?.close();
    await stack?.close();
  });

  const track = (r: Received) => (open.push(r), r);
  const chatEvents = (r: Received) => r.events.filter((e) => e.event === 'chat').map((e) => e.data);

  it('refuses the signed out, other roles and any query, with a 4xx in the envelope', async () => {
    expect((await listen(stack.baseUrl, null)).status).toBe(401);
    for (const who of [ambassador, admin]) expect((await listen(stack.baseUrl, who)).status).toBe(403);
    // Nothing rides in the URL (the token goes in the header).
    const withToken = await fetch(`${stack.baseUrl}/api/Chat/events?access_token=x`, { headers: { authorization: tenant.authorization } });
    expect(withToken.status).toBe(400);
    expect(await withToken.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
  });

  it('a message written through one replica reaches the other side streaming from another replica, and only them', async () => {
    const managerStream = track(await listen(replicaUrl, manager));
    const strangerStream = track(await listen(replicaUrl, stranger));
    const applicantStream = track(await listen(stack.baseUrl, applicant));
    const tenantStream = track(await listen(stack.baseUrl, tenant));
    expect(managerStream.status).toBe(200);

    const sent = await stack.app.inject({ method: 'POST', url: '/api/Chat/SendMessage', headers: { authorization: tenant.authorization }, payload: { message: '¿Cuándo arreglan la calefacción?' } });
    expect(sent.statusCode).toBe(201);
    const expected = { householdId, organizationId: orgId, kind: 'message' };
    await expect.poll(() => chatEvents(managerStream)).toContainEqual(expected);
    await expect.poll(() => chatEvents(tenantStream)).toContainEqual(expected);
    // The notice names the conversation, never the text.
    expect(JSON.stringify(managerStream.events)).not.toContain('calefacción');

    const reply = await replica.inject({ method: 'POST', url: '/api/Chat/SendMessage', headers: { authorization: manager.authorization }, payload: { householdId, message: 'Mañana.' } });
    expect(reply.statusCode).toBe(201);
    await expect.poll(() => chatEvents(tenantStream).length).toBe(2);
    const messageId = reply.json().data.messageId as string;
    await stack.app.inject({ method: 'POST', url: `/api/Chat/UpdateMessageSeenStatus/${householdId}/${orgId}/${messageId}`, headers: { authorization: tenant.authorization } });
    await expect.poll(() => chatEvents(managerStream)).toContainEqual({ ...expected, kind: 'seen' });

    // Another organisation's manager and another household heard nothing of this conversation
    // (each replica hands a notice to all its pages at once, so by now they would have).
    expect(chatEvents(strangerStream)).toEqual([]);
    expect(chatEvents(applicantStream)).toEqual([]);
  });

  it('a closing replica ends its streams (the page reconnects elsewhere) instead of hanging', async () => {
    const extra = await buildApp({ config: stack.config, db: stack.db, temporal: stack.temporal, blobs: stack.blobs });
    await extra.listen({ port: 0, host: '127.0.0.1' });
    const stream = track(await listen(`http://127.0.0.1:${(extra.server.address() as AddressInfo).port}`, tenant));
    expect(extra.chatEvents.size).toBe(1);
    await extra.close();
    expect(extra.chatEvents.size).toBe(0);
    expect(stream.status).toBe(200);
  });
});
