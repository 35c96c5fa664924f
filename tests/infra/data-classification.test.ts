import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATA_CLASSIFICATION, MEMO_CLASSIFICATION, SEARCH_ATTRIBUTE_CLASSIFICATION, registeredSearchAttributes, type DataClass } from '../../domain/data-classification';
import { dataCipher } from '../../infra/data-keys';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { adultMember, multipart, newResident } from '../helpers/household';
import { makeUser } from '../helpers/lease-up-users';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { BANK_STATEMENTS, samplePdf } from '../helpers/statements';

type Column = { table_name: string; column_name: string };

/** A sealed field value (infra/crypto.ts FieldCipher): opened by the stack's key, so it is ciphertext, not plain text that looks like it. */
function isSealedField(value: unknown): boolean {
  if (typeof value !== 'string' || !/^v2:[0-9a-f]{16}:/.test(value)) return false;
  dataCipher().decrypt(value);
  return true;
}

const isSealedJsonValue = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.keys(value).length === 1 && isSealedField((value as { $sealed?: unknown }).$sealed);

/** Why a stored value does not have the form its class promises (null when it does). */
function misfit(form: Extract<DataClass, { class: 'encrypted' }>['form'], value: unknown): string | null {
  if (value === null) return null;
  switch (form) {
    case 'field':
      return isSealedField(value) ? null : 'not a sealed value';
    case 'sealed-json':
      return isSealedJsonValue(value) ? null : 'not a sealed JSON value';
    case 'sealed-json-text':
      return typeof value === 'string' && isSealedJsonValue(JSON.parse(value)) ? null : 'not sealed JSON text';
    case 'emptied':
      return 'a plain value where only sealed rows should remain';
  }
}

/**
 * Every column of the live schema (after all migrations) is classified in
 * domain/data-classification.ts, and what is classified encrypted holds only ciphertext once every
 * kind of personal data has been entered through the product: SSN, ITIN and alien numbers, incomes,
 * assets, a declared income on an application, a chat message, a support ticket, a bank statement's
 * reading.
 */
describe('data classification', () => {
  let stack: Stack;
  const PLAIN = {
    ssn: '219-09-9999',
    itin: '912-70-1234',
    alien: 'A87654321',
    employer: `Zephyr Quilting ${randomUUID().slice(0, 6)}`,
    institution: `Quillmark Savings ${randomUUID().slice(0, 6)}`,
    balance: 48_213.77,
    declared: 53_917.41,
    chat: `My neighbour's dog ${randomUUID().slice(0, 6)}`,
    ticket: `Lost my key ${randomUUID().slice(0, 6)}`,
  };

  beforeAll(async () => {
    stack = await startStack();
  }, 180_000);
  afterAll(() => stack?.close());

  it('lists every column of every table, and no column that is gone', async () => {
    const { rows } = await sql<Column>`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`.execute(stack.db);
    const live = new Set(rows.map((r) => `${r.table_name}.${r.column_name}`));
    const listed = new Set(Object.entries(DATA_CLASSIFICATION).flatMap(([table, columns]) => Object.keys(columns).map((c) => `${table}.${c}`)));
    expect([...live].filter((c) => !listed.has(c)).sort(), 'columns not classified in domain/data-classification.ts').toEqual([]);
    expect([...listed].filter((c) => !live.has(c)).sort(), 'classified columns that no longer exist').toEqual([]);
    for (const [name, c] of Object.entries(DATA_CLASSIFICATION).flatMap(([t, columns]) => Object.entries(columns).map(([k, v]) => [`${t}.${k}`, v] as const))) {
      if (c.class === 'plain') expect(c.reason.length, `${name} needs a reason`).toBeGreaterThan(10);
    }
  });

  it('classifies every search attribute (none personal) and every memo field', () => {
    expect(Object.keys(SEARCH_ATTRIBUTE_CLASSIFICATION).sort()).toEqual(registeredSearchAttributes().sort());
    expect(Object.values(SEARCH_ATTRIBUTE_CLASSIFICATION).every((c) => c.class === 'none')).toBe(true);
    expect(MEMO_CLASSIFICATION).toEqual({});
  });

  it('holds only ciphertext in encrypted columns once every kind of personal data is entered', async () => {
    // A household with all three identifier kinds, an income and an asset.
    const resident = await newResident(stack.app, stack.db);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => stack.app.inject({ method, url, headers: resident.headers, ...(payload ? { payload } : {}) });
    await call('POST', '/api/Household/profile');
    const head = await call('POST', '/api/Household/CreateApplicantOrMember', adultMember({ ssn: PLAIN.ssn }));
    expect(head.statusCode, head.body).toBe(201);
    const memberId = head.json().data.id as string;
    for (const identifier of [{ itin: PLAIN.itin }, { alienRegistrationNumber: PLAIN.alien }]) {
      const member = await call('POST', '/api/Household/CreateApplicantOrMember', adultMember({ fullName: 'Sam Diaz', relationship: 'spouse', headOfHousehold: false, ssn: undefined, ...identifier }));
      expect(member.statusCode, member.body).toBe(201);
    }
    const income = await call('POST', '/api/HouseholdIncome/CreateOrUpdateIncome', { incomeType: 'employment', memberId, employerName: PLAIN.employer, startDate: '2021-02-01', amount: 3917.43, frequency: 'bi_weekly' });
    expect(income.statusCode, income.body).toBe(200);
    const asset = await call('POST', '/api/HouseholdAssets/BankAccounts', { kind: 'BankAccounts', memberId, accountType: 'savings', institution: PLAIN.institution, last4: '4321', balance: PLAIN.balance, annualIncome: 12.34 });
    expect(asset.statusCode, asset.body).toBeLessThan(300);
    const assets = (await call('GET', '/api/HouseholdAssets')).json().data as { institution?: string; balance?: number }[];
    expect(assets).toEqual([expect.objectContaining({ institution: PLAIN.institution, balance: PLAIN.balance })]);

    // An application with its declared income, listed with the figure.
    const organizationId = (await stack.db.selectFrom('organizations').select('id').orderBy('created_at').executeTakeFirstOrThrow()).id;
    const opportunity = await stack.db
      .insertInto('opportunities')
      .values({ organization_id: organizationId, name: `Classified ${randomUUID().slice(0, 6)}`, kind: 'rental', address: '1 Test Street', amenities: '[]', requirements: '[]', income_ranges: '[]', lottery_end_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), published: true, offer_expiry_days: 3, appeal_window_days: 9 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const applicant = await makeUser(stack, { role: 'User' });
    const applied = await stack.app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: { authorization: applicant.authorization }, payload: { opportunityId: opportunity.id, householdSize: 2, householdIncome: PLAIN.declared, agreeToTerms: true } });
    expect(applied.statusCode, applied.body).toBe(201);
    const listed = await stack.app.inject({ method: 'GET', url: '/api/LeaseUpApplication/getApplications', headers: { authorization: applicant.authorization } });
    expect(listed.json().data.items).toEqual([expect.objectContaining({ totalHouseholdIncome: PLAIN.declared })]);
    // The case's workflow carries only classified search attributes (none personal) and no memo field unclassified.
    const described = await stack.temporal.workflow.getHandle(leaseUpWorkflowId(applied.json().data.applicationId)).describe();
    expect(Object.keys(described.memo ?? {}).filter((k) => !(k in MEMO_CLASSIFICATION))).toEqual([]);
    const attributes = described.typedSearchAttributes.getAll().map((p) => p.key.name);
    expect(attributes.length).toBeGreaterThan(0);
    expect(attributes.filter((k) => !(k in SEARCH_ATTRIBUTE_CLASSIFICATION))).toEqual([]);
    const detail = await stack.app.inject({ method: 'GET', url: `/api/LeaseUpApplication/getDetailsById/${applied.json().data.applicationId}`, headers: { authorization: applicant.authorization } });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(JSON.stringify(detail.json().data)).toContain(String(PLAIN.declared));

    // A chat message and a support ticket from a tenant, and a bank statement's reading.
    const tenant = await signIn(stack.app, 'Tenant');
    const chat = await stack.app.inject({ method: 'POST', url: '/api/Chat/SendMessage', headers: { authorization: tenant.authorization }, payload: { message: PLAIN.chat } });
    expect(chat.statusCode, chat.body).toBeLessThan(300);
    const ticket = await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/CreateSupportTicket', headers: { authorization: tenant.authorization }, payload: { category: 'documents', subject: PLAIN.ticket, message: PLAIN.ticket } });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const user = await signIn(stack.app, 'User');
    const m = multipart({ documentType: 'bank_statement' }, [{ name: 'statement.pdf', body: await samplePdf(BANK_STATEMENTS[0]!) }]);
    const uploaded = await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, authorization: user.authorization } });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const documentId = (uploaded.json().data as { id: string }[])[0]!.id;
    expect((await stack.app.inject({ method: 'POST', url: '/api/v1/account-details', headers: { authorization: user.authorization }, payload: { documentId } })).statusCode).toBeLessThan(300);
    await eventually(async () => (await stack.db.selectFrom('document_extractions').select('status').where('document_id', '=', documentId).executeTakeFirst())?.status === 'ready', 90_000, 'the statement read');
    await eventually(async () => (await stack.db.selectFrom('support_tickets').select('id').where('id', '=', ticket.json().data.ticketId).executeTakeFirst()) !== undefined, 30_000, 'the ticket projected');

    // Every encrypted column, every row: ciphertext or null.
    const problems: string[] = [];
    for (const [table, columns] of Object.entries(DATA_CLASSIFICATION)) {
      for (const [column, c] of Object.entries(columns)) {
        if (c.class !== 'encrypted') continue;
        const { rows } = await sql<{ v: unknown }>`select ${sql.ref(column)} as v from ${sql.table(table)}`.execute(stack.db);
        for (const { v } of rows) {
          let why: string | null;
          try {
            why = misfit(c.form, v);
          } catch (error) {
            why = `does not open: ${(error as Error).message}`;
          }
          if (why) problems.push(`${table}.${column}: ${why}`);
        }
      }
    }
    expect([...new Set(problems)]).toEqual([]);

    // And the plain texts are nowhere in the database.
    const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(stack.db);
    const text: string[] = [];
    for (const { name } of tables.rows) text.push(...(await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(stack.db)).rows.map((r) => r.row));
    const all = text.join('\n');
    for (const plain of [PLAIN.ssn, '219099999', PLAIN.itin, '912701234', PLAIN.alien, PLAIN.employer, PLAIN.institution, String(PLAIN.balance), String(PLAIN.declared), PLAIN.chat, PLAIN.ticket]) {
      expect(all.includes(plain), `found ${plain} in PostgreSQL`).toBe(false);
    }
  }, 180_000);
});
