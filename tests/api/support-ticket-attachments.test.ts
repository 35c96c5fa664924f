import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from '../../domain';
import { FILE_CSP } from '../../api/plugins/security-headers';
import { multipart, tinyPdf } from '../helpers/household';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
type File = { name: string; body: Buffer; type?: string };
const BASE = '/api/SupportTicket';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const fields = (over: Record<string, string> = {}) => ({ category: 'documents', subject: 'Mi recibo', message: 'Adjunto el recibo que la página no acepta.', ...over });

/** Files attached to a support ticket, through the upload checks of household documents. */
describe('support ticket attachments', () => {
  let stack: Stack;
  let tenant: Auth;
  let applicant: Auth;
  let ambassador: Auth;
  let manager: Auth;
  let admin: Auth;
  let stranger: Auth;

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
  });
  afterAll(() => stack?.close());

  const send = (path: string, who: Auth | undefined, f: Record<string, string>, files: File[]) => {
    const m = multipart(f, files);
    return stack.app.inject({ method: 'POST', url: `${BASE}/${path}`, payload: m.payload, headers: { ...m.headers, ...(who ?? {}) } });
  };
  const get = (url: string, who: Auth) => stack.app.inject({ url, headers: who });
  const saved = async () => ({
    tickets: Number((await stack.db.selectFrom('support_tickets').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    attachments: Number((await stack.db.selectFrom('support_ticket_attachments').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  });
  const detail = async (who: Auth, id: string) => (await get(`${BASE}/GetSupportTicketById/${id}`, who)).json().data as {
    ticket: { messages: { seq: number; body: string }[] };
    attachments: { attachmentId: string; messageSeq: number; fileName: string; contentType: string; sizeBytes: number }[];
  };

  it('refuses other roles and bad files or bodies with a 4xx in the envelope, saving neither ticket nor file', async () => {
    const before = await saved();
    const pdf = [{ name: 'recibo.pdf', body: tinyPdf() }];
    expect((await send('CreateSupportTicket', undefined, fields(), pdf)).statusCode).toBe(401);
    // Staff answer tickets; they do not open them (the guard answers before the body is read).
    for (const who of [manager, admin]) expect((await send('CreateSupportTicket', who, fields(), pdf)).statusCode).toBe(403);
    const cases: [Record<string, string>, File[], number, string?][] = [
      [fields({ message: '' }), pdf, 400, 'Please write a message'],
      [{ ...fields(), extra: 'x' }, pdf, 400],
      [fields({ category: 'gossip' }), pdf, 400, 'Please choose a category'],
      [fields(), [{ name: 'letter.pdf', body: Buffer.from('just text pretending to be a PDF') }], 415],
      [fields(), [{ name: 'page.pdf', body: Buffer.from('%PDF-1.4\n<html><script>alert(1)</script></html>\n%%EOF') }], 415],
      [fields(), [{ name: 'empty.pdf', body: Buffer.alloc(0) }], 400, 'File is required'],
      [fields(), [{ name: 'big.pdf', body: Buffer.concat([tinyPdf(), Buffer.alloc(MAX_FILE_BYTES + 1)]) }], 413],
      [fields(), Array.from({ length: MAX_FILES_PER_UPLOAD + 1 }, (_, i) => ({ name: `p${i}.pdf`, body: tinyPdf() })), 413],
      [fields({ subject: 'bad\u0000subject' }), pdf, 400],
      [fields(), [{ name: 'a\u0000.pdf', body: tinyPdf() }], 400],
    ];
    for (const [f, files, status, message] of cases) {
      const res = await send('CreateSupportTicket', tenant, f, files);
      expect(res.statusCode, JSON.stringify(f) + files.map((x) => x.name).join()).toBe(status);
      expect(res.json()).toMatchObject({ status, data: expect.any(Object) });
      if (message) expect(res.json().message).toBe(message);
    }
    // A truncated multipart body.
    const m = multipart(fields(), pdf);
    const broken = await stack.app.inject({ method: 'POST', url: `${BASE}/CreateSupportTicket`, payload: m.payload.subarray(0, m.payload.length - 40), headers: { ...m.headers, ...tenant } });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    expect(await saved()).toEqual(before);
  });

  it('files sent with a ticket and with replies are listed on it and downloaded by its requester and its staff only', async () => {
    const before = await saved();
    const created = await send('CreateSupportTicket', tenant, fields(), [{ name: 'recibo de sueldo.pdf', body: tinyPdf() }, { name: 'foto.png', body: PNG, type: 'image/png' }]);
    expect(created.statusCode, created.body).toBe(201);
    const ticketId = created.json().data.ticketId as string;
    expect(created.json().data.attachments).toEqual([
      expect.objectContaining({ messageSeq: 1, fileName: 'recibo de sueldo.pdf', contentType: 'application/pdf', sizeBytes: tinyPdf().length }),
      expect.objectContaining({ messageSeq: 1, fileName: 'foto.png', contentType: 'image/png', sizeBytes: PNG.length }),
    ]);

    // The manager answers with a file, the tenant replies with one (JSON replies still work without).
    const answered = await send('AddReplyToTicket', manager, { ticketId, message: 'Aquí está el formulario.' }, [{ name: 'form.pdf', body: tinyPdf() }]);
    expect(answered.statusCode, answered.body).toBe(200);
    const plain = await stack.app.inject({ method: 'POST', url: `${BASE}/AddReplyToTicket`, headers: tenant, payload: { ticketId, message: 'Gracias.' } });
    expect(plain.statusCode).toBe(200);
    const replied = await send('AddReplyToTicket', tenant, { ticketId, message: 'Lo llené.' }, [{ name: 'lleno.pdf', body: tinyPdf() }]);
    expect(replied.statusCode, replied.body).toBe(200);

    const seen = await detail(manager, ticketId);
    expect(seen.ticket.messages.map((x) => x.seq)).toEqual([1, 2, 3, 4]);
    expect(seen.attachments.map((a) => [a.messageSeq, a.fileName])).toEqual([[1, expect.any(String)], [1, expect.any(String)], [2, 'form.pdf'], [4, 'lleno.pdf']]);
    expect((await detail(tenant, ticketId)).attachments).toEqual(seen.attachments);
    expect(await saved()).toEqual({ tickets: before.tickets + 1, attachments: before.attachments + 4 });

    const photo = seen.attachments.find((a) => a.fileName === 'foto.png')!;
    const url = `${BASE}/${ticketId}/attachments/${photo.attachmentId}`;
    for (const who of [tenant, manager, admin]) {
      const res = await get(url, who);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-disposition']).toContain('attachment;');
      expect(res.headers['content-security-policy']).toBe(FILE_CSP);
    }
    const named = await get(`${BASE}/${ticketId}/attachments/${seen.attachments[0]!.attachmentId}`, tenant);
    expect(named.headers['content-disposition']).toContain(`filename*=UTF-8''recibo%20de%20sueldo.pdf`);
    // Another household, an ambassador who did not ask, another organisation's manager.
    for (const who of [applicant, ambassador, stranger]) {
      const res = await get(url, who);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status: 403, data: { code: 'forbidden' } });
      expect((await get(`${BASE}/GetSupportTicketById/${ticketId}`, who)).statusCode).toBe(403);
    }
    // Unknown attachment, unknown ticket, malformed ids; an attachment asked under another ticket.
    expect((await get(`${BASE}/${ticketId}/attachments/${randomUUID()}`, tenant)).statusCode).toBe(404);
    expect((await get(`${BASE}/${randomUUID()}/attachments/${photo.attachmentId}`, tenant)).statusCode).toBe(404);
    expect((await get(`${BASE}/${ticketId}/attachments/nope`, tenant)).statusCode).toBe(400);
    const other = await send('CreateSupportTicket', tenant, fields({ subject: 'Otro' }), []);
    expect(other.statusCode).toBe(201);
    expect(other.json().data.attachments).toEqual([]);
    expect((await get(`${BASE}/${other.json().data.ticketId}/attachments/${photo.attachmentId}`, tenant)).statusCode).toBe(404);

    // A refused file on a reply saves neither the reply nor the file; a stranger's reply is refused before.
    const count = await saved();
    const bad = await send('AddReplyToTicket', tenant, { ticketId, message: 'Otro archivo' }, [{ name: 'x.pdf', body: Buffer.from('plain text') }]);
    expect(bad.statusCode).toBe(415);
    expect((await send('AddReplyToTicket', stranger, { ticketId, message: 'hola' }, [{ name: 'y.pdf', body: tinyPdf() }])).statusCode).toBe(403);
    expect((await send('AddReplyToTicket', tenant, { ticketId: 'nope', message: 'hola' }, [{ name: 'y.pdf', body: tinyPdf() }])).statusCode).toBe(400);
    expect((await detail(tenant, ticketId)).ticket.messages).toHaveLength(4);
    expect(await saved()).toEqual(count);

    // Stored private and sealed: the bucket holds no plain PDF under the ticket's key.
    const row = await stack.db.selectFrom('support_ticket_attachments').select('blob_key').where('id', '=', seen.attachments[2]!.attachmentId).executeTakeFirstOrThrow();
    expect(row.blob_key).toBe(`support-tickets/${ticketId}/attachments/${seen.attachments[2]!.attachmentId}`);
    expect((await stack.blobs.get(row.blob_key))?.body.equals(tinyPdf())).toBe(true);
  });
});
