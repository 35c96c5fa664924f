import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../helpers/identity';
import { grantAccess, organizationId } from '../helpers/ambassador';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { readZip } from '../helpers/zip-reader';

/**
 * "Download my data" (GET /api/Household/my-data/export): the household's whole record as one zip
 * with a summary in its language; every download audited; refused to an ambassador acting for the
 * household, to staff and to the signed-out. Streamed, one file read at a time; refused before a
 * byte is sent past the size cap (409), while another download of the household runs (429) and past
 * the hourly limit (429 with Retry-After).
 */
describe('download my data', () => {
  const MAX_BYTES = 10_000_000;
  const PER_HOUR = 20;
  let stack: Stack;
  let tenant: { authorization: string; userId: string };
  let householdId: string;
  const chat = `Hola oficina ${randomUUID().slice(0, 6)}`;
  const subject = `Llave perdida ${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    stack = await startStack({ config: { MY_DATA_EXPORT_MAX_BYTES: String(MAX_BYTES), MY_DATA_EXPORTS_PER_HOUR: String(PER_HOUR) } });
    tenant = await signIn(stack.app, 'Tenant');
    householdId = (await stack.db.selectFrom('households').select('id').where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow()).id;
    const headers = { authorization: tenant.authorization };
    expect((await stack.app.inject({ method: 'POST', url: '/api/Chat/SendMessage', headers, payload: { message: chat } })).statusCode).toBeLessThan(300);
    expect((await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/CreateSupportTicket', headers, payload: { category: 'documents', subject, message: 'No encuentro mi llave.' } })).statusCode).toBe(201);
  });
  afterAll(() => stack?.close());

  const download = (authorization: string | undefined, language?: string) =>
    stack.app.inject({ method: 'GET', url: `/api/Household/my-data/export${language ? `?language=${language}` : ''}`, headers: authorization ? { authorization } : {} });

  it('holds the profile, applications, documents, messages, tickets, access and its own log, with a summary in English and in Spanish', async () => {
    const english = await download(tenant.authorization, 'en');
    expect(english.statusCode, english.body).toBe(200);
    expect(english.headers['content-type']).toBe('application/zip');
    expect(english.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = await readZip(english.rawPayload);
    for (const name of ['summary.txt', 'profile.json', 'applications.json', 'cases.json', 'letters.json', 'documents.json', 'messages.json', 'tickets.json', 'access.json', 'privacy-log.json']) {
      expect(files.has(name), name).toBe(true);
    }
    const summary = files.get('summary.txt')!.toString('utf8');
    expect(summary).toContain('Your data held by the housing portal');
    expect(summary).toContain('messages.json: 1 message(s)');
    const profile = JSON.parse(files.get('profile.json')!.toString('utf8'));
    expect(profile.household.id).toBe(householdId);
    expect(profile.members.length).toBeGreaterThan(0);
    expect(profile.incomes.length).toBeGreaterThan(0);
    // Identifiers leave only as their last 4 digits.
    expect(JSON.stringify(profile)).not.toMatch(/ssn_encrypted|v2:/);
    // The demo tenant's pay stub, as uploaded.
    const documents = [...files.keys()].filter((k) => k.startsWith('documents/'));
    expect(documents.some((k) => k.endsWith('pay-stub.pdf'))).toBe(true);
    expect(files.get(documents.find((k) => k.endsWith('pay-stub.pdf'))!)!.subarray(0, 5).toString()).toBe('%PDF-');
    expect(JSON.parse(files.get('messages.json')!.toString('utf8')).map((m: { body: string }) => m.body)).toContain(chat);
    expect(JSON.parse(files.get('tickets.json')!.toString('utf8')).map((t: { subject: string }) => t.subject)).toContain(subject);
    expect(JSON.parse(files.get('access.json')!.toString('utf8'))).toHaveProperty('grants');

    const spanish = await readZip((await download(tenant.authorization, 'es')).rawPayload);
    const resumen = spanish.get('summary.txt')!.toString('utf8');
    expect(resumen).toContain('Sus datos guardados en el portal de vivienda');
    expect(resumen).toContain('messages.json: 1 mensaje(s)');
    // The second archive lists the first download in its privacy log.
    expect(JSON.parse(spanish.get('privacy-log.json')!.toString('utf8'))).toEqual([expect.objectContaining({ action: 'export' })]);

    const audit = await stack.db.selectFrom('privacy_audit').selectAll().where('household_id', '=', householdId).orderBy('id').execute();
    expect(audit.map((a) => [a.action, a.actor_user_id, (a.detail as { language?: string }).language])).toEqual([
      ['export', tenant.userId, 'en'],
      ['export', tenant.userId, 'es'],
    ]);
  });

  it('refuses an ambassador acting for the household, staff, the signed-out and bad input, auditing nothing', async () => {
    const before = Number((await stack.db.selectFrom('privacy_audit').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const ambassador = await signIn(stack.app, 'HousingAmbassador');
    await grantAccess(stack.db, { userId: tenant.userId, organizationId: await organizationId(stack.db), requestedBy: ambassador.userId });
    const start = await post(stack.app, `/api/Account/impersonate/${tenant.userId}`, {}, { authorization: ambassador.authorization });
    expect(start.statusCode, start.body).toBe(200);
    const acting = await download(`Bearer ${start.json().data.accessToken}`);
    expect(acting.statusCode).toBe(403);
    expect(acting.json()).toMatchObject({ status: 403, data: { code: 'notAllowedWhileImpersonating' } });
    expect((await download((await signIn(stack.app, 'Manager')).authorization)).statusCode).toBe(403);
    expect((await download(undefined)).statusCode).toBe(401);
    const bad = await download(tenant.authorization, 'fr');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400 });
    const after = Number((await stack.db.selectFrom('privacy_audit').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before);
  });

  const exports = async () => Number((await stack.db.selectFrom('privacy_audit').select((eb) => eb.fn.countAll().as('n')).where('household_id', '=', householdId).where('action', '=', 'export').executeTakeFirstOrThrow()).n);

  /** Documents on file with their own bytes, as uploads leave them (blob and row). */
  async function addDocuments(count: number): Promise<{ id: string; body: Buffer }[]> {
    const added: { id: string; body: Buffer }[] = [];
    for (let i = 0; i < count; i++) {
      const body = Buffer.concat([Buffer.from(`%PDF-1.4 statement ${i} `), randomBytes(4096)]);
      const blobKey = `households/${householdId}/documents/${randomUUID()}`;
      await stack.blobs.put(blobKey, body, 'application/pdf');
      const row = await stack.db
        .insertInto('household_documents')
        .values({ household_id: householdId, document_type: 'bank_statement', file_name: `statement-${i}.pdf`, blob_key: blobKey, content_type: 'application/pdf', size_bytes: body.length, uploaded_by: tenant.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      added.push({ id: row.id, body });
    }
    return added;
  }

  it('streams the archive (no length known up front), each document read back whole by a real unzip parser', async () => {
    const added = await addDocuments(3);
    const response = await download(tenant.authorization);
    expect(response.statusCode, response.body).toBe(200);
    // Streamed: the archive is written as it is read, so its length is not known when the answer starts.
    expect(response.headers['content-length']).toBeUndefined();
    const files = await readZip(response.rawPayload);
    for (const document of added) {
      const name = [...files.keys()].find((k) => k.startsWith(`documents/${document.id}-`));
      expect(name, document.id).toBe(`documents/${document.id}-statement-${added.indexOf(document)}.pdf`);
      expect(files.get(name!)!.equals(document.body)).toBe(true);
    }
    // The summary, written last, counts the documents the archive holds.
    const held = [...files.keys()].filter((k) => k.startsWith('documents/')).length;
    expect(files.get('summary.txt')!.toString('utf8')).toContain(`documents/: ${held} document(s) you uploaded`);
  });

  it('refuses with 409 before a byte is sent when the documents add up past the cap, and frees the household', async () => {
    const before = await exports();
    const big = await stack.db
      .insertInto('household_documents')
      .values({ household_id: householdId, document_type: 'bank_statement', file_name: 'huge.pdf', blob_key: `households/${householdId}/documents/${randomUUID()}`, content_type: 'application/pdf', size_bytes: MAX_BYTES + 1, uploaded_by: tenant.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await download(tenant.authorization);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.json()).toMatchObject({ status: 409, message: 'Your records are too large to download as one file. Please ask your managing agent for a copy.', data: { code: 'myDataTooLarge' } });
    expect(await exports()).toBe(before);
    await stack.db.deleteFrom('household_documents').where('id', '=', big.id).execute();
    expect((await download(tenant.authorization)).statusCode).toBe(200);
  });

  it('lets one download of a household run at a time, on any replica; a replica that died frees it once its lease expires', async () => {
    // The first download waits on its first file until released; meanwhile a second one is asked for.
    const get = stack.blobs.get.bind(stack.blobs);
    let reached!: () => void;
    const atFirstFile = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    stack.blobs.get = async (key) => {
      if (!held) {
        held = true;
        reached();
        await released;
      }
      return get(key);
    };
    try {
      const first = download(tenant.authorization);
      await atFirstFile;
      const second = await download(tenant.authorization);
      expect(second.statusCode).toBe(429);
      expect(second.json()).toMatchObject({ status: 429, message: 'A download of your data is already being prepared. Please wait for it to finish.', data: { code: 'myDataExportInProgress' } });
      release();
      expect((await first).statusCode).toBe(200);
    } finally {
      stack.blobs.get = get;
      release();
    }
    // Done: the household is free again.
    expect((await download(tenant.authorization)).statusCode).toBe(200);

    // Another replica's download still running (its lease live) is waited for; one whose replica died is taken over.
    await stack.db.insertInto('my_data_export_leases').values({ household_id: householdId, lease_id: randomUUID(), expires_at: new Date(Date.now() + 3_600_000) }).execute();
    expect((await download(tenant.authorization)).json()).toMatchObject({ status: 429, data: { code: 'myDataExportInProgress' } });
    await stack.db.updateTable('my_data_export_leases').set({ expires_at: new Date(Date.now() - 1000) }).where('household_id', '=', householdId).execute();
    expect((await download(tenant.authorization)).statusCode).toBe(200);
    expect(await stack.db.selectFrom('my_data_export_leases').select('household_id').where('household_id', '=', householdId).executeTakeFirst()).toBeUndefined();
  });

  it('answers 429 with Retry-After past the downloads allowed in an hour', async () => {
    await stack.db.deleteFrom('privacy_audit').where('household_id', '=', householdId).where('action', '=', 'export').execute();
    const halfAnHourAgo = sql<Date>`now() - interval '30 minutes'`;
    const older = sql<Date>`now() - interval '2 hours'`;
    const audit = (at: typeof older) => ({ action: 'export' as const, household_id: householdId, actor_user_id: tenant.userId, detail: '{}', created_at: at });
    await stack.db.insertInto('privacy_audit').values([audit(older), ...Array.from({ length: PER_HOUR - 1 }, () => audit(halfAnHourAgo))]).execute();
    // The last one allowed in the hour (the one two hours ago no longer counts).
    expect((await download(tenant.authorization)).statusCode).toBe(200);
    const refused = await download(tenant.authorization);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ status: 429, message: 'You have downloaded your data several times in the last hour. Please try again later.', data: { code: 'myDataExportLimit' } });
    // The oldest download in the hour leaves it in about half an hour.
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1800);
    expect(await exports()).toBe(PER_HOUR + 1);
  });

  it('documents the zip, the cap and the limits in the OpenAPI document', async () => {
    const doc = (await stack.app.inject({ url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/Household/my-data/export'].get;
    expect(Object.keys(op.responses['2XX'].content)).toEqual(['application/zip']);
    expect(op.responses['409'].description).toContain('myDataTooLarge');
    expect(op.responses['429'].description).toContain('myDataExportInProgress');
    expect(op.responses['429'].description).toContain('myDataExportLimit');
  });
});

