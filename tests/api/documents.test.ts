import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { adultMember, multipart, newResident, recentPayDates, tinyPdf } from '../helpers/household';

/** `/api/Document` on the real stack: content-checked uploads into S3 (MinIO), limits, review flags. */
describe('documents API', () => {
  let stack: Stack;
  let who: Awaited<ReturnType<typeof newResident>>;
  let memberId: string;
  let incomeId: string;
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(64)]);
  const upload = (fields: Record<string, string>, files: { name: string; body: Buffer; type?: string }[], headers = who.headers) => {
    const m = multipart(fields, files);
    return stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, ...headers } });
  };

  beforeAll(async () => {
    stack = await startStack();
    who = await newResident(stack.app, stack.db, 'Tenant');
    await stack.db.updateTable('users').set({ organization_id: (await stack.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow()).id }).where('id', '=', who.userId).execute();
    memberId = (await stack.app.inject({ method: 'POST', url: '/api/Household/CreateApplicantOrMember', headers: who.headers, payload: adultMember() })).json().data.id;
    incomeId = (await stack.app.inject({
      method: 'POST', url: '/api/HouseholdIncome/create', headers: who.headers,
      payload: { incomeType: 'employment', memberId, employerName: 'Deli', startDate: '2021-01-01', amount: 600, frequency: 'weekly' },
    })).json().data.id;
  });
  afterAll(() => stack?.close());

  it('stores a checked file privately and returns it as base64 with its content type', async () => {
    const r = await upload({ documentType: 'pay_stub', incomeId, memberId, payDates: recentPayDates(2, 7) }, [{ name: 'week1.pdf', body: tinyPdf() }, { name: 'week2.png', body: png, type: 'image/png' }]);
    expect(r.statusCode).toBe(201);
    const [pdf, image] = r.json().data;
    expect(pdf).toMatchObject({ documentTypeName: 'pay_stub', fileType: 'PDF', status: 'Uploaded', houseHoldMemberName: 'Rosa Diaz', householdIncomeId: incomeId });
    expect(image.fileType).toBe('PNG');
    const content = await stack.app.inject({ url: `/api/Document/GetDocument/${pdf.id}`, headers: who.headers });
    expect(content.json().data).toEqual({ fileContent: tinyPdf().toString('base64'), contentType: 'application/pdf' });
    const required = (await stack.app.inject({ url: '/api/Document/GetRequiredDocs', headers: who.headers })).json().data;
    expect(required).toEqual([
      expect.objectContaining({ incomeId, documentType: 'pay_stub', uploaded: true }),
      expect.objectContaining({ incomeId: null, incomeType: null, documentType: 'identity', uploaded: false }),
    ]);
    const other = await signIn(stack.app, 'User');
    expect((await stack.app.inject({ url: `/api/Document/GetDocument/${pdf.id}`, headers: other })).statusCode).toBe(404);
  });

  it('refuses a file whose content is not an accepted type, whatever its name says', async () => {
    const r = await upload({ documentType: 'other' }, [{ name: 'letter.pdf', body: Buffer.from('just text pretending to be a PDF') }]);
    expect(r.statusCode).toBe(415);
    expect(r.json().data.code).toBe('invalidFile');
    const exe = await upload({ documentType: 'other' }, [{ name: 'a.pdf', body: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]) }]);
    expect(exe.statusCode).toBe(415);
  });

  it('enforces size and count limits (6 bank statements, 1 retirement statement, 6 pay stubs)', async () => {
    const big = Buffer.concat([tinyPdf(), Buffer.alloc(10 * 1024 * 1024 + 10)]);
    const tooBig = await upload({ documentType: 'other' }, [{ name: 'big.pdf', body: big }]);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().data.code).toBe('fileTooLarge');
    const two = await upload({ documentType: 'retirement_statement' }, [{ name: 'a.pdf', body: tinyPdf() }, { name: 'b.pdf', body: tinyPdf() }]);
    expect(two.statusCode).toBe(422);
    expect(two.json().message).toBe('Retirement statement: 1 file');
    const seven = await upload({ documentType: 'bank_statement' }, Array.from({ length: 7 }, (_, i) => ({ name: `s${i}.pdf`, body: tinyPdf() })));
    expect(seven.statusCode).toBe(413);
    const stubs = await upload({ documentType: 'pay_stub', incomeId }, Array.from({ length: 5 }, (_, i) => ({ name: `p${i}.pdf`, body: tinyPdf() })));
    expect(stubs.json().message).toBe('Pay stubs: upload the last 6 consecutive');
    expect((await upload({ documentType: 'other' }, [])).json().message).toBe('File is required');
    expect((await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', headers: { ...who.headers, 'content-type': 'application/json' }, payload: {} })).statusCode).toBe(415);
    expect((await upload({ documentType: 'passport' }, [{ name: 'a.pdf', body: tinyPdf() }])).json().message).toBe('Document type is required');
  });

  it('lets the manager reject or flag a document, and the household re-upload with a reason', async () => {
    const manager = await signIn(stack.app, 'Manager');
    const householdId = (await stack.app.inject({ url: '/api/Household/profile', headers: who.headers })).json().data.householdId;
    const doc = (await upload({ documentType: 'award_letter', memberId }, [{ name: 'award.pdf', body: tinyPdf() }])).json().data[0];
    const noReason = await stack.app.inject({ method: 'PUT', url: '/api/Document/ManagerReview', headers: manager, payload: { householdId, documentId: doc.id, rejected: true } });
    expect(noReason.json().message).toBe('Please provide a reason.');
    const rejected = await stack.app.inject({ method: 'PUT', url: '/api/Document/ManagerReview', headers: manager, payload: { householdId, documentId: doc.id, rejected: true, needsReview: true, rejectionReason: 'Page 2 missing' } });
    expect(rejected.statusCode).toBe(200);
    const listed = (await stack.app.inject({ url: '/api/Household/getAllDocuments?rejected=true', headers: who.headers })).json().data;
    expect(listed).toEqual([expect.objectContaining({ id: doc.id, rejectedByManager: true, needsReview: true, rejectionReason: 'Page 2 missing' })]);
    expect((await stack.app.inject({ method: 'PUT', url: '/api/Document/ManagerReview', headers: who.headers, payload: { householdId, documentId: doc.id } })).statusCode).toBe(403);

    const withoutReason = await upload({ documentType: 'award_letter', memberId, replacesDocumentId: doc.id }, [{ name: 'award2.pdf', body: tinyPdf() }]);
    expect(withoutReason.json().message).toBe('Please provide a reason.');
    const replaced = await upload({ documentType: 'award_letter', memberId, replacesDocumentId: doc.id, reason: 'Full letter attached' }, [{ name: 'award2.pdf', body: tinyPdf() }]);
    expect(replaced.statusCode).toBe(201);
    expect(replaced.json().data[0]).toMatchObject({ reviewReason: 'Full letter attached', rejectedByManager: false });
    expect((await stack.app.inject({ url: `/api/Document/GetDocument/${doc.id}`, headers: who.headers })).statusCode).toBe(404);

    const reason = await stack.app.inject({ method: 'PUT', url: '/api/Document/DocumentReviewReason', headers: who.headers, payload: { documentId: replaced.json().data[0].id, reason: ' ' } });
    expect(reason.json().message).toBe('Please provide a reason.');
  });

  it('searches and filters the list, and deletes documents with their file', async () => {
    const found = (await stack.app.inject({ url: '/api/Document?search=week1', headers: who.headers })).json().data.items;
    expect(found.map((d: { fileName: string }) => d.fileName)).toEqual(['week1.pdf']);
    const byType = (await stack.app.inject({ url: '/api/Household/getAllDocuments?documentType=award_letter', headers: who.headers })).json().data;
    expect(byType).toHaveLength(1);
    const id = found[0].id;
    expect((await stack.app.inject({ method: 'DELETE', url: `/api/Document/DeleteDocument/${id}`, headers: who.headers })).statusCode).toBe(200);
    expect((await stack.app.inject({ url: `/api/Document/GetDocument/${id}`, headers: who.headers })).statusCode).toBe(404);
    const listedKeys = await stack.db.selectFrom('household_documents').select('blob_key').where('id', '=', id).execute();
    expect(listedKeys).toEqual([]);
    expect((await stack.app.inject({ url: '/api/Document/GetIncomeTypeDocuments?incomeType=ssi', headers: who.headers })).json().data).toEqual(['award_letter']);
    expect((await stack.app.inject({ url: '/api/Document/GetIncomeTypeDocuments?incomeType=nope', headers: who.headers })).statusCode).toBe(400);
  });
});
