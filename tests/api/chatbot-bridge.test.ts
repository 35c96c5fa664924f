import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../domain';
import { multipart, tinyPdf } from '../helpers/household';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
const URL = '/api/ChatbotBridge/upload-document';

/** Spec section 7 ChatbotBridge/upload-document: a document sent in a conversation lands in My Documents. */
describe('documents sent in a conversation with the managing office', () => {
  let stack: Stack;
  let tenant: Auth;
  let applicant: Auth;
  let manager: Auth;
  let stranger: Auth;
  let householdId: string;
  let orgId: string;
  let before: { documents: number; messages: number };

  beforeAll(async () => {
    stack = await startStack();
    [tenant, applicant, manager] = await Promise.all([signIn(stack.app, 'Tenant'), signIn(stack.app, 'User'), signIn(stack.app, 'Manager')]);
    stranger = await otherOrganizationManager(stack);
    const h = await stack.db.selectFrom('households').select(['id', 'organization_id']).where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow();
    householdId = h.id;
    orgId = h.organization_id!;
    before = await saved();
  });
  afterAll(() => stack?.close());

  const send = (who: Auth | undefined, fields: Record<string, string>, files: { name: string; body: Buffer; type?: string }[]) => {
    const m = multipart(fields, files);
    return stack.app.inject({ method: 'POST', url: URL, payload: m.payload, headers: { ...m.headers, ...(who ?? {}) } });
  };
  const saved = async () => ({
    documents: Number((await stack.db.selectFrom('household_documents').select((eb) => eb.fn.countAll().as('n')).where('household_id', '=', householdId).executeTakeFirstOrThrow()).n),
    messages: Number((await stack.db.selectFrom('chat_messages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  });

  it('refuses other roles, other organisations and bad input with a 4xx in the envelope, saving nothing', async () => {
    const pdf = [{ name: 'lease.pdf', body: tinyPdf() }];
    const ok = { documentType: 'other', organizationId: '' };
    const fields = () => ({ ...ok, organizationId: orgId });
    expect((await send(undefined, fields(), pdf)).statusCode).toBe(401);
    for (const who of [manager, stranger]) expect((await send(who, fields(), pdf)).statusCode).toBe(403);
    // A household linked with another organisation, or an organisation it has no link with.
    expect((await send(applicant, fields(), pdf)).statusCode).toBe(403);
    expect((await send(tenant, { ...fields(), organizationId: randomUUID() }, pdf)).statusCode).toBe(403);

    const cases: [Record<string, string>, { name: string; body: Buffer; type?: string }[], number, string?][] = [
      [{ documentType: 'other' }, pdf, 400, 'Invalid organization id'],
      [{ ...fields(), organizationId: 'nope' }, pdf, 400, 'Invalid organization id'],
      [{ organizationId: orgId }, pdf, 400, 'Document type is required'],
      [fields(), [], 400, 'File is required'],
      [fields(), [{ name: 'letter.pdf', body: Buffer.from('just text pretending to be a PDF') }], 415],
      [fields(), [{ name: 'big.pdf', body: Buffer.concat([tinyPdf(), Buffer.alloc(MAX_FILE_BYTES + 1)]) }], 413],
      [{ ...fields(), reason: 'bad\u0000reason' }, pdf, 400],
      [fields(), [{ name: 'a\u0000.pdf', body: tinyPdf() }], 400],
    ];
    for (const [f, files, status, message] of cases) {
      const res = await send(tenant, f, files);
      expect(res.statusCode, JSON.stringify(f) + files.map((x) => x.name).join()).toBe(status);
      expect(res.json()).toMatchObject({ status, data: expect.any(Object) });
      if (message) expect(res.json().message).toBe(message);
    }
    // Not multipart at all, and a truncated multipart body.
    expect((await stack.app.inject({ method: 'POST', url: URL, headers: { ...tenant, 'content-type': 'application/json' }, payload: {} })).statusCode).toBe(415);
    const m = multipart(fields(), pdf);
    const broken = await stack.app.inject({ method: 'POST', url: URL, payload: m.payload.subarray(0, m.payload.length - 40), headers: { ...m.headers, ...tenant } });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    expect(await saved()).toEqual(before);
  });

  it('a tenant sends a document: it is in My Documents and the conversation says so, on both sides', async () => {
    const res = await send(tenant, { documentType: 'other', organizationId: orgId }, [{ name: 'repair-photo.pdf', body: tinyPdf() }]);
    expect(res.statusCode).toBe(201);
    const { documents, message } = res.json().data;
    expect(documents).toEqual([expect.objectContaining({ fileName: 'repair-photo.pdf', fileType: 'PDF', status: 'Uploaded' })]);
    expect(message).toMatchObject({ householdId, organizationId: orgId, side: 'household', kind: 'documents_shared', body: 'repair-photo.pdf' });

    const mine = (await stack.app.inject({ url: '/api/Document', headers: tenant })).json().data.items;
    expect(mine).toEqual(expect.arrayContaining([expect.objectContaining({ id: documents[0].id, fileName: 'repair-photo.pdf' })]));
    // Stored like any upload: the file is served back to the household, and the organisation's manager reads it.
    const file = await stack.app.inject({ url: `/api/Document/Download/${documents[0].id}`, headers: tenant });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const history = (await stack.app.inject({ url: `/api/Chat/GetPreviousMessages/${householdId}/${orgId}`, headers: manager })).json().data;
    expect(history.items[0]).toMatchObject({ messageId: message.messageId, kind: 'documents_shared', body: 'repair-photo.pdf' });
    expect((await stack.app.inject({ url: '/api/Chat/unseen-count', headers: manager })).json().data.unseenMessagesCount).toBe(1);
    expect(await saved()).toEqual({ documents: before.documents + 1, messages: before.messages + 1 });
  });
});
