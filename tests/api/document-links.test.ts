import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { adultMember, multipart, newResident, recentPayDates, tinyPdf } from '../helpers/household';
import { signDocumentLink, verifyDocumentLink } from '../../api/services/document-links';

/**
 * Spec section 7 `/api/Document` as written: Preview without an id, short-lived signed
 * links only for the document's household or its organisation's managers; section 5: a document's
 * file name and type are required, pay stubs are the last 6 consecutive.
 */
describe('document calls of section 7 and the rules of section 5', () => {
  let stack: Stack;
  let who: Awaited<ReturnType<typeof newResident>>;
  let householdId: string;
  let incomeId: string;
  let docId: string;
  const upload = (fields: Record<string, string>, files: { name: string; body: Buffer }[], headers = who.headers) => {
    const m = multipart(fields, files);
    return stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, ...headers } });
  };

  beforeAll(async () => {
    stack = await startStack();
    who = await newResident(stack.app, stack.db, 'Tenant');
    const org = await stack.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    await stack.db.updateTable('users').set({ organization_id: org.id }).where('id', '=', who.userId).execute();
    const memberId = (await stack.app.inject({ method: 'POST', url: '/api/Household/CreateApplicantOrMember', headers: who.headers, payload: adultMember() })).json().data.id;
    incomeId = (await stack.app.inject({
      method: 'POST', url: '/api/HouseholdIncome/create', headers: who.headers,
      payload: { incomeType: 'employment', memberId, employerName: 'Deli', startDate: '2021-01-01', amount: 600, frequency: 'weekly' },
    })).json().data.id;
    householdId = (await stack.app.inject({ url: '/api/Household/profile', headers: who.headers })).json().data.householdId;
    docId = (await upload({ documentType: 'award_letter' }, [{ name: 'award.pdf', body: tinyPdf() }])).json().data[0].id;
  });
  afterAll(() => stack?.close());

  it('previews a document without an id in the path: by documentId or by its fileUrl', async () => {
    const content = { fileContent: tinyPdf().toString('base64'), contentType: 'application/pdf' };
    expect((await stack.app.inject({ url: `/api/Document/Preview?documentId=${docId}`, headers: who.headers })).json().data).toEqual(content);
    const byUrl = await stack.app.inject({ url: `/api/Document/Preview?fileUrl=${encodeURIComponent(`/api/Document/GetDocument/${docId}`)}`, headers: who.headers });
    expect(byUrl.json().data).toEqual(content);
    const missing = await stack.app.inject({ url: '/api/Document/Preview', headers: who.headers });
    expect(missing.statusCode).toBe(400);
    expect((await stack.app.inject({ url: `/api/Document/Preview?documentId=${docId}`, headers: await signIn(stack.app, 'User') })).statusCode).toBe(404);
  });

  it('gives a short-lived link to the owner and to the organisation manager only; the link opens the file without a token', async () => {
    const path = `/api/Document/generatepublicurlfromblobstorage/${householdId}/${docId}`;
    const owner = await stack.app.inject({ url: path, headers: who.headers });
    expect(owner.statusCode).toBe(200);
    const { url, expiresAt } = owner.json().data;
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);
    const file = await stack.app.inject({ url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.rawPayload.equals(tinyPdf())).toBe(true);

    expect((await stack.app.inject({ url: path, headers: await signIn(stack.app, 'Manager') })).statusCode).toBe(200);
    // Another household, an ambassador, no session: no link.
    expect((await stack.app.inject({ url: path, headers: await signIn(stack.app, 'User') })).statusCode).toBe(404);
    expect((await stack.app.inject({ url: path, headers: await signIn(stack.app, 'HousingAmbassador') })).statusCode).toBe(403);
    expect((await stack.app.inject({ url: path })).statusCode).toBe(401);

    // A tampered or expired link opens nothing.
    const token = url.split('/').pop()!;
    expect((await stack.app.inject({ url: `/api/Document/shared/${token.slice(0, -2)}xx` })).statusCode).toBe(404);
    const key = stack.config.DATA_ENCRYPTION_KEY;
    const expired = signDocumentLink(key, { householdId, documentId: docId, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect((await stack.app.inject({ url: `/api/Document/shared/${expired}` })).statusCode).toBe(404);
    expect(verifyDocumentLink(key, token, Math.floor(Date.parse(expiresAt) / 1000) + 1)).toBeNull();
    // A link signed for another household does not reach this household's document.
    const forged = signDocumentLink(key, { householdId: '00000000-0000-4000-8000-000000000000', documentId: docId, expiresAt: Math.floor(Date.now() / 1000) + 60 });
    expect((await stack.app.inject({ url: `/api/Document/shared/${forged}` })).statusCode).toBe(404);
  });

  it('requires the document type and the file name', async () => {
    const noType = await upload({}, [{ name: 'a.pdf', body: tinyPdf() }]);
    expect(noType.statusCode).toBe(400);
    expect(noType.json().message).toBe('Document type is required');
    const noName = await upload({ documentType: 'other' }, [{ name: '', body: tinyPdf() }]);
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('Document file name is required');
  });

  it('accepts pay stubs only as the last consecutive pay periods, each with its pay date', async () => {
    const stubs = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `stub${i}.pdf`, body: tinyPdf() }));
    const noDates = await upload({ documentType: 'pay_stub', incomeId }, stubs(2));
    expect(noDates.json()).toMatchObject({ status: 400, message: 'Enter the pay date of each pay stub' });
    const [newest, , third] = recentPayDates(3, 7).split(',');
    const gap = await upload({ documentType: 'pay_stub', incomeId, payDates: `${newest},${third}` }, stubs(2));
    expect(gap.json()).toMatchObject({ status: 422, message: 'Pay stubs must be consecutive: no pay period may be missing or repeated' });
    const old = recentPayDates(3, 7, new Date(Date.now() - 60 * 86_400_000));
    expect((await upload({ documentType: 'pay_stub', incomeId, payDates: old }, stubs(3))).json().message).toBe('Pay stubs must be the most recent ones: the newest is more than one pay period old');
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    expect((await upload({ documentType: 'pay_stub', incomeId, payDates: future }, stubs(1))).json().message).toBe('A pay date cannot be in the future');

    expect((await upload({ documentType: 'pay_stub', incomeId, payDates: recentPayDates(4, 7) }, stubs(4))).statusCode).toBe(201);
    // The next two must continue the same run: a repeated period is refused, the two before are accepted.
    const dates = recentPayDates(6, 7).split(',');
    expect((await upload({ documentType: 'pay_stub', incomeId, payDates: `${dates[3]},${dates[4]}` }, stubs(2))).statusCode).toBe(422);
    expect((await upload({ documentType: 'pay_stub', incomeId, payDates: `${dates[4]},${dates[5]}` }, stubs(2))).statusCode).toBe(201);
    const rows = await stack.db.selectFrom('household_documents').select('pay_date').where('income_id', '=', incomeId).where('document_type', '=', 'pay_stub').execute();
    expect(rows.map((r) => r.pay_date).sort()).toEqual([...dates].sort());
  });
});
