import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_MESSAGES, EXTRACTION_MESSAGES, FORM_MESSAGES, type ExtractionView } from '../../domain';
import { createKeyRing, keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { resealExtractions } from '../../infra/key-rotation';
import { multipart, recentPayDates } from '../helpers/household';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { BANK_STATEMENTS, PAY_STUBS, renderPng, samplePdf } from '../helpers/statements';

type Auth = { authorization: string; userId: string };

/**
 * Through the API: /api/v1/account-details asks for a document's figures (read by a
 * workflow's activity, never on the request), GetAiExtractedData / GetJsonData / GetExtractedEmployer
 * show them, and SaveAiExtractedData(Multiple) saves what the resident confirmed through the asset
 * and income forms' own validation. Nothing is saved before that.
 */
describe('figures read from bank statements and pay stubs', () => {
  let stack: Stack;
  let applicant: Auth;
  let tenant: Auth;
  let manager: Auth;
  let stranger: Auth;
  let householdId: string;
  let memberId: string;
  let incomeId: string;

  beforeAll(async () => {
    stack = await startStack();
    [applicant, tenant, manager] = await Promise.all([signIn(stack.app, 'User'), signIn(stack.app, 'Tenant'), signIn(stack.app, 'Manager')]);
    stranger = await otherOrganizationManager(stack);
    const h = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', applicant.userId).executeTakeFirstOrThrow();
    householdId = h.id;
    // The applicant's household under the demo manager's organisation, so that manager may read it.
    const org = await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow();
    await stack.db.updateTable('households').set({ organization_id: org.organization_id }).where('id', '=', householdId).execute();
    const income = await stack.db.selectFrom('household_incomes').select(['id', 'member_id']).where('household_id', '=', householdId).executeTakeFirstOrThrow();
    incomeId = income.id;
    memberId = income.member_id;
  }, 120_000);
  afterAll(async () => {
    useDataKeys(keyRingFromConfig(stack.config));
    await stack?.close();
  });

  const upload = async (who: Auth, documentType: string, file: { name: string; body: Buffer; type?: string }, fields: Record<string, string> = {}) => {
    const m = multipart({ documentType, ...fields }, [file]);
    const res = await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, authorization: who.authorization } });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data as { id: string }[])[0]!.id;
  };
  const api = (who: Auth | undefined, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    stack.app.inject({ method, url, payload: payload as object, headers: who ? { authorization: who.authorization } : {} });
  const request = (who: Auth, documentId: string) => api(who, 'POST', '/api/v1/account-details', { documentId });
  const ready = (documentId: string) =>
    eventually(async () => {
      const res = await api(applicant, 'GET', `/api/HouseholdAssets/GetAiExtractedData?documentId=${documentId}`);
      const view = res.json().data as ExtractionView;
      return view.status !== 'pending' && view;
    }, 90_000);
  const counts = async () => ({
    assets: Number((await stack.db.selectFrom('household_assets').select((eb) => eb.fn.countAll().as('n')).where('household_id', '=', householdId).executeTakeFirstOrThrow()).n),
    incomes: (await stack.db.selectFrom('household_incomes').select(['id', 'updated_at']).where('household_id', '=', householdId).execute()).map((r) => `${r.id}@${String(r.updated_at)}`).sort(),
  });

  it('refuses the unsigned, other households and bad input with a 4xx in the envelope', async () => {
    const statement = await upload(applicant, 'bank_statement', { name: 'statement.pdf', body: await samplePdf(BANK_STATEMENTS[0]!) });
    const other = await upload(applicant, 'other', { name: 'lease.pdf', body: await samplePdf(BANK_STATEMENTS[0]!) });
    expect((await api(undefined, 'POST', '/api/v1/account-details', { documentId: statement })).statusCode).toBe(401);
    expect((await api(undefined, 'GET', `/api/HouseholdAssets/GetAiExtractedData?documentId=${statement}`)).statusCode).toBe(401);
    expect((await api(undefined, 'POST', '/api/HouseholdAssets/SaveAiExtractedData', {})).statusCode).toBe(401);
    // Another household's document is not found for it, nor for a manager of another organisation.
    expect((await request(tenant, statement)).statusCode).toBe(404);
    expect((await api(tenant, 'GET', `/api/HouseholdAssets/GetAiExtractedData?documentId=${statement}`)).statusCode).toBe(404);
    expect((await api(stranger, 'GET', `/api/HouseholdAssets/GetAiExtractedData?documentId=${statement}&householdId=${householdId}`)).statusCode).toBe(404);
    expect((await api(manager, 'POST', '/api/v1/account-details', { documentId: statement })).statusCode).toBe(403);
    for (const [method, url, payload, status] of [
      ['POST', '/api/v1/account-details', {}, 400],
      ['POST', '/api/v1/account-details', { documentId: 'nope' }, 400],
      ['POST', '/api/v1/account-details', { documentId: randomUUID() }, 404],
      ['GET', '/api/HouseholdAssets/GetAiExtractedData', undefined, 400],
      ['GET', '/api/HouseholdAssets/GetAiExtractedData?documentId=nope', undefined, 400],
      ['GET', `/api/HouseholdAssets/GetJsonData?documentId=${randomUUID()}`, undefined, 404],
      // Not asked for yet.
      ['GET', `/api/HouseholdAssets/GetAiExtractedData?documentId=${statement}`, undefined, 404],
      ['POST', '/api/HouseholdAssets/SaveAiExtractedData', { documentId: statement }, 400],
      ['POST', '/api/HouseholdAssets/SaveAiExtractedData', { documentId: statement, asset: { kind: 'Nope' } }, 400],
      ['POST', '/api/HouseholdAssets/SaveAiExtractedDataMultiple', [], 400],
      ['POST', '/api/HouseholdAssets/SaveAiExtractedDataMultiple', { notAList: true }, 400],
    ] as const) {
      const res = await api(applicant, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json(), `${method} ${url}`).toMatchObject({ status, message: expect.any(String) });
    }
    const notExtractable = await request(applicant, other);
    expect(notExtractable.statusCode).toBe(422);
    expect(notExtractable.json().message).toBe(EXTRACTION_MESSAGES.notExtractable);
  });

  it('reads a text statement and a scanned pay stub off the request path, proposes them, and saves nothing', async () => {
    const before = await counts();
    const statement = await upload(applicant, 'bank_statement', { name: 'october.pdf', body: await samplePdf(BANK_STATEMENTS[1]!) });
    const stub = await upload(applicant, 'pay_stub', { name: 'stub.png', body: await renderPng(await samplePdf(PAY_STUBS[2]!)), type: 'image/png' }, { payDates: recentPayDates(1, 7) });

    const asked = await request(applicant, statement);
    expect(asked.statusCode).toBe(202);
    expect(asked.json().data).toMatchObject({ documentId: statement, documentType: 'bank_statement', status: 'pending', fields: null });
    expect((await request(applicant, stub)).statusCode).toBe(202);

    const read = await ready(statement);
    expect(read).toMatchObject({
      status: 'ready', source: 'pdf_text', confirmedAt: null,
      fields: { institution: { value: 'FIRST HARBOR CREDIT UNION', confirm: false }, accountType: { value: 'checking' }, last4: { value: '7730' }, balance: { value: 1849.75 }, statementDate: { value: '2026-10-31' } },
    });
    // Asking again starts nothing new and answers the reading as it stands.
    const again = await request(applicant, statement);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(read.id);
    expect((await api(applicant, 'GET', `/api/v1/account-details?documentId=${statement}`)).json().data).toEqual(read);
    const json = (await api(applicant, 'GET', `/api/HouseholdAssets/GetJsonData?documentId=${statement}`)).json().data;
    expect(json.lines.map((l: { text: string }) => l.text)).toContain('Checking Account Summary');
    // The household's organisation's manager sees the reading; the figures are sealed at rest.
    expect((await api(manager, 'GET', `/api/HouseholdAssets/GetAiExtractedData?documentId=${statement}&householdId=${householdId}`)).json().data).toEqual(read);
    const row = await stack.db.selectFrom('document_extractions').select('result_sealed').where('document_id', '=', statement).executeTakeFirstOrThrow();
    expect(row.result_sealed).toMatch(/^\{"\$sealed":"v2:/);
    expect(row.result_sealed).not.toContain('7730');

    const scanned = await ready(stub);
    expect(scanned).toMatchObject({
      status: 'ready', source: 'ocr',
      fields: { employerName: { value: 'Sunrise Bakery', confirm: true }, payDate: { value: '2026-11-07' }, grossPay: { value: 612.5 }, frequency: { value: 'weekly' } },
    });
    // Proposed only: no asset or income written or changed, the documents linked to nothing.
    expect(await counts()).toEqual(before);
    const docs = await stack.db.selectFrom('household_documents').select(['asset_id', 'income_id']).where('id', 'in', [statement, stub]).execute();
    expect(docs).toEqual([{ asset_id: null, income_id: null }, { asset_id: null, income_id: null }]);
  }, 180_000);

  it('saves what the resident confirms through the asset form\'s validation, and links the document', async () => {
    const statement = await upload(applicant, 'bank_statement', { name: 'savings.pdf', body: await samplePdf(BANK_STATEMENTS[0]!) });
    await request(applicant, statement);
    const read = await ready(statement);
    const fields = read.fields as unknown as Record<string, { value: unknown }>;
    const asset = { kind: 'BankAccounts', accountType: fields.accountType!.value, institution: fields.institution!.value, last4: fields.last4!.value, balance: fields.balance!.value, annualIncome: 0 };
    const before = await counts();

    // The form's messages for the form's mistakes; a pay stub's entry for a statement is refused.
    for (const [body, status, message] of [
      [{ documentId: statement, asset: { ...asset, institution: ' ' } }, 400, BANK_MESSAGES.institution],
      [{ documentId: statement, asset: { ...asset, last4: '48a1' } }, 400, FORM_MESSAGES.last4],
      [{ documentId: statement, income: { incomeType: 'employment', memberId, employerName: 'Acme', amount: 10, frequency: 'weekly', startDate: '2020-01-01' } }, 422, EXTRACTION_MESSAGES.wrongEntry],
    ] as const) {
      const res = await api(applicant, 'POST', '/api/HouseholdAssets/SaveAiExtractedData', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect((await api(tenant, 'POST', '/api/HouseholdAssets/SaveAiExtractedData', { documentId: statement, asset })).statusCode).toBe(404);
    expect(await counts()).toEqual(before);

    // The resident corrects the balance and confirms.
    const saved = await api(applicant, 'POST', '/api/HouseholdAssets/SaveAiExtractedData', { documentId: statement, asset: { ...asset, balance: 3400 } });
    expect(saved.statusCode, saved.body).toBe(200);
    const assetId = saved.json().data.asset.id as string;
    const listed = (await api(applicant, 'GET', '/api/HouseholdAssets')).json().data;
    expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ id: assetId, institution: 'Riverside Community Bank', last4: '4821', balance: 3400, accountType: 'savings' })]));
    expect(await stack.db.selectFrom('household_documents').select('asset_id').where('id', '=', statement).executeTakeFirstOrThrow()).toEqual({ asset_id: assetId });
    expect((await ready(statement)).confirmedAt).toEqual(expect.any(String));

    // A reading that failed (or is still pending) cannot be confirmed.
    await stack.db.updateTable('document_extractions').set({ status: 'failed' }).where('document_id', '=', statement).execute();
    const notReady = await api(applicant, 'POST', '/api/HouseholdAssets/SaveAiExtractedData', { documentId: statement, asset });
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json().message).toBe(EXTRACTION_MESSAGES.notReady);
  }, 120_000);

  it('asks whether to update the saved employer name when the pay stub names another (section 5)', async () => {
    const stub = await upload(applicant, 'pay_stub', { name: 'acme.pdf', body: await samplePdf(PAY_STUBS[0]!) }, { incomeId, payDates: recentPayDates(1, 14) });
    await request(applicant, stub);
    await ready(stub);
    const employer = await api(applicant, 'GET', `/api/HouseholdAssets/GetExtractedEmployer?documentId=${stub}`);
    expect(employer.json().data).toMatchObject({ onPayStub: 'Acme Widgets Inc.', savedEmployerName: 'City Hospital', incomeId, differs: true });
    const statement = await upload(applicant, 'bank_statement', { name: 's.pdf', body: await samplePdf(BANK_STATEMENTS[2]!) });
    expect((await api(applicant, 'GET', `/api/HouseholdAssets/GetExtractedEmployer?documentId=${statement}`)).statusCode).toBe(422);

    // The resident updates the name, with the stub's gross pay and frequency.
    const income = (await api(applicant, 'GET', '/api/HouseholdIncome')).json().data.find((i: { id: string }) => i.id === incomeId);
    const { annualAmount: _a, memberName: _m, ...entry } = income;
    const saved = await api(applicant, 'POST', '/api/HouseholdAssets/SaveAiExtractedData', { documentId: stub, income: { ...entry, employerName: 'Acme Widgets Inc.', amount: 2150, frequency: 'bi_weekly' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.income).toMatchObject({ id: incomeId, employerName: 'Acme Widgets Inc.', amount: 2150, frequency: 'bi_weekly' });
    expect((await api(applicant, 'GET', `/api/HouseholdAssets/GetExtractedEmployer?documentId=${stub}`)).json().data).toMatchObject({ savedEmployerName: 'Acme Widgets Inc.', differs: false });
  }, 120_000);

  it('saves several confirmed statements at once, or none when one is wrong', async () => {
    const ids = [
      await upload(applicant, 'bank_statement', { name: 'a.pdf', body: await samplePdf(BANK_STATEMENTS[1]!) }),
      await upload(applicant, 'bank_statement', { name: 'b.pdf', body: await samplePdf(BANK_STATEMENTS[2]!) }),
    ];
    for (const id of ids) await request(applicant, id);
    const readings = await Promise.all(ids.map(ready));
    const third = readings[1]!.fields as unknown as Record<string, { value: unknown; confirm: boolean }>;
    // The bare heading's institution is marked for confirmation.
    expect(third.institution).toMatchObject({ value: 'Maple & Pine', confirm: true });
    const entries = readings.map((r, i) => {
      const f = r.fields as unknown as Record<string, { value: unknown }>;
      return { documentId: ids[i]!, asset: { kind: 'BankAccounts', accountType: f.accountType!.value, institution: f.institution!.value, last4: f.last4!.value, balance: f.balance!.value, annualIncome: 0 } };
    });
    const before = await counts();
    for (const bad of [[entries[0], { ...entries[1], asset: { ...entries[1]!.asset, balance: 'lots' } }], [entries[0], entries[0]]]) {
      const res = await api(applicant, 'POST', '/api/HouseholdAssets/SaveAiExtractedDataMultiple', bad);
      expect(res.statusCode).toBe(400);
    }
    expect(await counts()).toEqual(before);
    const saved = await api(applicant, 'POST', '/api/HouseholdAssets/SaveAiExtractedDataMultiple', entries);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.map((d: { asset: { institution: string } }) => d.asset.institution)).toEqual(['FIRST HARBOR CREDIT UNION', 'Maple & Pine']);
    expect((await counts()).assets).toBe(before.assets + 2);
  }, 120_000);

  it('re-seals the readings under a new key; twice changes nothing', async () => {
    const ready = Number((await stack.db.selectFrom('document_extractions').select((eb) => eb.fn.countAll().as('n')).where('result_sealed', 'is not', null).executeTakeFirstOrThrow()).n);
    expect(ready).toBeGreaterThan(0);
    useDataKeys(createKeyRing(randomBytes(32).toString('base64'), [stack.config.DATA_ENCRYPTION_KEY]));
    expect(await resealExtractions(stack.db)).toBe(ready);
    expect(await resealExtractions(stack.db)).toBe(0);
  });
});
