import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
const BASE = '/api/Chat';

/** Spec section 7 "Chat": one conversation per household and organisation, on the real stack. */
describe('messages with the managing office through the API', () => {
  let stack: Stack;
  let tenant: Auth;
  let applicant: Auth;
  let manager: Auth;
  let stranger: Auth;
  let householdId: string;
  let orgId: string;

  beforeAll(async () => {
    stack = await startStack();
    [tenant, applicant, manager] = await Promise.all([signIn(stack.app, 'Tenant'), signIn(stack.app, 'User'), signIn(stack.app, 'Manager')]);
    stranger = await otherOrganizationManager(stack);
    const h = await stack.db.selectFrom('households').select(['id', 'organization_id']).where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow();
    householdId = h.id;
    orgId = h.organization_id!;
  });
  afterAll(() => stack?.close());

  const get = (url: string, headers?: Auth) => stack.app.inject({ url, ...(headers ? { headers } : {}) });
  const post = (url: string, headers: Auth | undefined, payload?: object) => stack.app.inject({ method: 'POST', url, ...(headers ? { headers } : {}), ...(payload ? { payload } : {}) });
  const unseen = async (who: Auth) => (await get(`${BASE}/unseen-count`, who)).json().data.unseenMessagesCount as number;
  const count = async () => Number((await stack.db.selectFrom('chat_messages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('refuses strangers and bad input with a 4xx in the envelope, saving nothing', async () => {
    expect((await post(`${BASE}/SendMessage`, undefined, { message: 'hola' })).statusCode).toBe(401);
    for (const body of [{ message: '' }, { message: 'x'.repeat(4001) }, { message: 'hi', householdId: 'nope' }, { message: 'hi', extra: 1 }]) {
      const res = await post(`${BASE}/SendMessage`, tenant, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    }
    // A manager names the household; a household only writes as itself, to an organisation it is linked with.
    expect((await post(`${BASE}/SendMessage`, manager, { message: 'hi' })).statusCode).toBe(400);
    expect((await post(`${BASE}/SendMessage`, tenant, { message: 'hi', householdId: randomUUID() })).statusCode).toBe(403);
    expect((await post(`${BASE}/SendMessage`, tenant, { message: 'hi', organizationId: randomUUID() })).statusCode).toBe(403);
    expect((await post(`${BASE}/SendMessage`, stranger, { message: 'hi', householdId })).statusCode).toBe(403);
    expect((await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}`, applicant)).statusCode).toBe(403);
    expect((await get(`${BASE}/GetPreviousMessages/bad/${orgId}`, tenant)).statusCode).toBe(400);
    expect((await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}?cursor=forged`, tenant)).statusCode).toBe(400);
    expect((await post(`${BASE}/SetMessageAsPinned/${randomUUID()}`, tenant)).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'DELETE', url: `${BASE}/DeleteMessage/nope`, headers: tenant })).statusCode).toBe(400);
    expect((await get(`${BASE}/active-chats`, tenant)).statusCode).toBe(403);
    expect(await count()).toBe(0);
  });

  it('a tenant writes in Spanish; the manager sees it unread in active chats, answers; seen status clears the counts', async () => {
    const sent = await post(`${BASE}/SendMessage`, tenant, { message: '¿Cuándo arreglan la calefacción?' });
    expect(sent.statusCode).toBe(201);
    const first = sent.json().data;
    expect(first).toMatchObject({ householdId, organizationId: orgId, side: 'household', body: '¿Cuándo arreglan la calefacción?' });
    // Sealed at rest.
    expect(JSON.stringify(await stack.db.selectFrom('chat_messages').selectAll().execute())).not.toContain('calefacción');

    expect(await unseen(manager)).toBe(1);
    expect(await unseen(tenant)).toBe(0);
    expect(await unseen(stranger)).toBe(0);
    const chats = (await get(`${BASE}/active-chats`, manager)).json().data;
    expect(chats.items).toEqual([expect.objectContaining({ householdId, organizationId: orgId, unseen: 1 })]);
    expect((await get(`${BASE}/active-chats`, stranger)).json().data.items).toEqual([]);
    expect((await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}`, stranger)).statusCode).toBe(403);

    const answer = (await post(`${BASE}/SendMessage`, manager, { householdId, message: 'Mañana por la mañana.' })).json().data;
    expect(answer).toMatchObject({ side: 'staff', organizationId: orgId });
    expect(await unseen(manager)).toBe(0);
    expect(await unseen(tenant)).toBe(1);
    // The tenant is told by email in their language that there is a message (not what it says).
    const notice = await stack.db.selectFrom('notification_outbox').select(['params', 'template']).where('user_id', '=', tenant.userId).where('template', '=', 'support-ticket').executeTakeFirstOrThrow();
    expect(JSON.stringify(notice.params)).not.toContain('Mañana');

    let page = (await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}`, manager)).json().data;
    expect(page.items.map((m: { body: string }) => m.body)).toEqual(['Mañana por la mañana.', '¿Cuándo arreglan la calefacción?']);
    expect(page.otherSideSeenUpTo).toBe(first.createdAt);
    expect((await post(`${BASE}/UpdateMessageSeenStatus/${householdId}/${orgId}/${answer.messageId}`, tenant)).json().data).toMatchObject({ unseenMessagesCount: 0, activeOrganizationIdForChat: orgId, householdId });
    expect((await post(`${BASE}/UpdateMessageSeenStatus/${householdId}/${orgId}/${randomUUID()}`, tenant)).statusCode).toBe(404);
    expect((await post(`${BASE}/UpdateMessageSeenStatus/${householdId}/${orgId}/${answer.messageId}`, stranger)).statusCode).toBe(403);
    page = (await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}`, manager)).json().data;
    expect(page.otherSideSeenUpTo).toBe(answer.createdAt);
  });

  it('either side pins; only the author deletes; history pages by cursor', async () => {
    const page = (await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}`, tenant)).json().data;
    const fromOffice = page.items.find((m: { side: string }) => m.side === 'staff');
    const mine = page.items.find((m: { side: string }) => m.side === 'household');
    expect((await post(`${BASE}/SetMessageAsPinned/${fromOffice.messageId}`, tenant)).json().data.pinned).toBe(true);
    expect((await post(`${BASE}/SetMessageAsPinned/${fromOffice.messageId}`, manager, { pinned: false })).json().data.pinned).toBe(false);
    expect((await post(`${BASE}/SetMessageAsPinned/${fromOffice.messageId}`, stranger)).statusCode).toBe(403);
    expect((await post(`${BASE}/SetMessageAsPinned/${fromOffice.messageId}`, tenant, { pinned: 'yes' })).statusCode).toBe(400);

    const refused = await stack.app.inject({ method: 'DELETE', url: `${BASE}/DeleteMessage/${fromOffice.messageId}`, headers: tenant });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data.code).toBe('chatMessageNotYours');
    const deleted = (await stack.app.inject({ method: 'DELETE', url: `${BASE}/DeleteMessage/${mine.messageId}`, headers: tenant })).json().data;
    expect(deleted).toMatchObject({ deleted: true, body: null, pinned: false });
    expect((await stack.db.selectFrom('chat_messages').select('body_encrypted').where('id', '=', mine.messageId).executeTakeFirstOrThrow()).body_encrypted).toBeNull();

    for (const text of ['uno', 'dos', 'tres']) await post(`${BASE}/SendMessage`, tenant, { message: text });
    const first = (await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}?limit=2`, tenant)).json().data;
    expect(first.items.map((m: { body: string }) => m.body)).toEqual(['tres', 'dos']);
    const second = (await get(`${BASE}/GetPreviousMessages/${householdId}/${orgId}?limit=2&cursor=${first.nextCursor}`, tenant)).json().data;
    expect(second.items.map((m: { body: string | null }) => m.body)).toEqual(['uno', 'Mañana por la mañana.']);
    expect(await unseen(manager)).toBe(3);
  });
});
