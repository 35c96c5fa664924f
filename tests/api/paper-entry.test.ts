import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseUpApplicationId } from '../../infra/temporal/ids';
import { matchKey, normaliseName } from '../../infra/paper/match-key';
import { queueNoticeLetter } from '../../infra/paper/mailed-letters';
import { admitPaperApplication, undecidedPairs } from '../../infra/db/repositories/lottery-duplicates';
import { openLottery } from '../../api/services/lottery';
import { claimCodeHash } from '../../infra/paper/claim-code';
import { adultMember, multipart, newResident, tinyPdf } from '../helpers/household';
import { demoAccount, eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { DAY } from '../../domain/time';

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8').normalize('NFC').replace(/\s+/g, ' ');

/**
 * Paper and mail applicants (shared/design/workflows.md, opportunity table): a manager enters a
 * mailed form through the lottery's EnterPaperApplication; it enters the lottery as an online one;
 * a household without a login gets its letters in its language in the office's print queue and
 * claims its application online with the code of its first letter; the same person online and on
 * paper is found by a keyed hash and decided by the manager.
 */
describe('paper applications', () => {
  let stack: Stack;
  let manager: { authorization: string; userId: string };
  let applicant: { authorization: string; userId: string };
  let opportunityId: string;
  let deadline: string;
  const base = () => `/api/OpportunityLottery/${opportunityId}`;
  // The demo applicant's head of household, as seeded (infra/seed-household.ts).
  const applicantHead = () => ({ fullName: `${demoAccount('User').firstName} ${demoAccount('User').lastName}`, dateOfBirth: '1978-05-14', ssn: '123-45-6789' });
  const form = (over: Record<string, unknown> = {}, member: Record<string, unknown> = {}) => ({
    members: [adultMember({ preferredLanguage: 'es', ...member })],
    incomes: [{ memberIndex: 0, entry: { incomeType: 'employment', employerName: 'Panadería Sol', startDate: '2020-02-01', amount: 600, frequency: 'weekly' } }],
    householdIncome: 31_200,
    address: { line1: '12 Mott Ave', city: 'Bronx', state: 'NY', zip: '10451', mailingSameAsLiving: true },
    language: 'es',
    postmarkDate: new Date().toISOString().slice(0, 10),
    ...over,
  });
  const enter = (body: unknown, headers: Record<string, string> = manager, files = [{ name: 'form-scan.pdf', body: tinyPdf() }]) => {
    const m = multipart({ application: JSON.stringify(body) }, files);
    return stack.app.inject({ method: 'POST', url: `${base()}/paper-applications`, payload: m.payload, headers: { ...m.headers, ...headers } });
  };

  /** Every stored household file (scans and documents), to see that a refused entry leaves none. */
  const storedBlobs = async (prefix: string) => {
    const keys: string[] = [];
    for await (const key of stack.blobs.list(prefix)) keys.push(key);
    return keys.sort();
  };
  const householdBlobs = () => storedBlobs('households/');

  beforeAll(async () => {
    stack = await startStack();
    manager = await signIn(stack.app, 'Manager');
    applicant = await signIn(stack.app, 'User');
    const org = await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow();
    deadline = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    ({ id: opportunityId } = await stack.db
      .insertInto('opportunities')
      .values({ organization_id: org.organization_id!, name: 'Paper Street Homes', kind: 'rental', address: '12 Mott Ave', lottery_end_date: deadline, mail_grace_days: 5, published: true, selection: 'lottery', amenities: '[]', requirements: '[]', income_ranges: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow());
    await stack.db.insertInto('units').values({ opportunity_id: opportunityId, unit_number: '1A', bedroom_type: '1 bedroom', address: '12 Mott Ave', accessibility: '[]', monthly_rent: 900, ami_percent: 50 }).execute();
    await openLottery({ db: stack.db, temporal: stack.temporal, taskQueue: stack.config.TEMPORAL_TASK_QUEUE }, opportunityId);
    await eventually(async () => (await stack.db.selectFrom('opportunity_lotteries').select('state_version').where('opportunity_id', '=', opportunityId).executeTakeFirst())?.state_version, 30_000, 'the lottery projected');
  }, 240_000);
  afterAll(() => stack?.close());

  it("a manager sets the opportunity's mail grace period (0 to 60 days; 7 when not given)", async () => {
    const body = (lottery: object) => ({ name: 'Grace House', kind: 'rental', address: '1 Grace St', lotteryEndDate: deadline, selection: 'lottery', lottery, units: [{ unitNumber: '1', bedroomType: '1 bedroom', monthlyRent: 900, amiPercent: 50 }] });
    const create = (lottery: object) => stack.app.inject({ method: 'POST', url: '/api/Opportunity/manage', headers: manager, payload: body(lottery) });
    const three = await create({ setAsides: [], mailGraceDays: 3 });
    expect(three.statusCode, three.body).toBe(201);
    expect(three.json().data.lottery.mailGraceDays).toBe(3);
    expect((await create({ setAsides: [] })).json().data.lottery.mailGraceDays).toBe(7);
    expect((await create({ setAsides: [], mailGraceDays: 61 })).json()).toMatchObject({ status: 400, message: expect.stringContaining('0 to 60') });
  });

  it('refuses who may not enter one, and bad input, with a 4xx in the envelope', async () => {
    const anonymous = multipart({ application: JSON.stringify(form()) }, [{ name: 'scan.pdf', body: tinyPdf() }]);
    expect((await stack.app.inject({ method: 'POST', url: `${base()}/paper-applications`, payload: anonymous.payload, headers: anonymous.headers })).statusCode).toBe(401);
    expect((await enter(form(), applicant)).statusCode).toBe(403);
    // A manager of another organisation.
    const otherOrg = await stack.db.insertInto('organizations').values({ name: 'Elsewhere', slug: `elsewhere-${randomUUID().slice(0, 6)}` }).returning('id').executeTakeFirstOrThrow();
    const outsider = await stack.db.insertInto('users').values({ username: `mgr-${randomUUID().slice(0, 6)}`, email: `mgr-${randomUUID().slice(0, 6)}@example.org`, first_name: 'Other', last_name: 'Manager', role: 'Manager', password_hash: 'x', organization_id: otherOrg.id }).returning('id').executeTakeFirstOrThrow();
    const foreign = await enter(form(), { authorization: `Bearer ${stack.app.signAccessToken({ sub: outsider.id, role: 'Manager' }).token}` });
    expect(foreign.statusCode).toBe(403);

    const cases: [unknown, number, string][] = [
      [form({ members: [] }), 400, 'validation'],
      [form({}, { ssn: '000-00-0000' }), 400, 'validation'],
      [form({}, { relationship: 'spouse' }), 400, 'validation'],
      [form({ incomes: [{ memberIndex: 3, entry: { incomeType: 'employment', employerName: 'X', startDate: '2020-01-01', amount: 1, frequency: 'weekly' } }] }), 400, 'validation'],
      [form({ postmarkDate: new Date(Date.parse(deadline) + DAY).toISOString().slice(0, 10) }), 409, 'postmarkAfterDeadline'],
      // Refused by the lottery itself (after the household was written): nothing of it stays.
      [form({ postmarkDate: deadline }), 409, 'postmarkInFuture'],
    ];
    const blobsBefore = await householdBlobs();
    for (const [body, status, code] of cases) {
      const r = await enter(body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(r.json()).toMatchObject({ status, message: expect.any(String), data: { code } });
    }
    expect((await enter(form(), manager, [])).statusCode).toBe(400);
    expect((await enter(form(), manager, [{ name: 'scan.html', body: Buffer.from('<html></html>') }])).statusCode).toBe(415);
    const notMultipart = await stack.app.inject({ method: 'POST', url: `${base()}/paper-applications`, payload: form(), headers: manager });
    expect(notMultipart.statusCode).toBe(415);
    // Nothing refused left a household behind, nor the scan it stored.
    expect(await stack.db.selectFrom('households').select('id').where('login', '=', 'none').execute()).toEqual([]);
    expect(await householdBlobs()).toEqual(blobsBefore);
  });

  it('enters a Spanish paper form like an online application, finds the same person online by a keyed hash, and the manager decides which stands', async () => {
    // The demo applicant applies online first.
    const online = await stack.app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: applicant, payload: { opportunityId, householdSize: 2, householdIncome: 40_000, agreeToTerms: true } });
    expect(online.statusCode, online.body).toBeLessThan(300);
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', applicant.userId).executeTakeFirstOrThrow();
    const onlineId = leaseUpApplicationId(opportunityId, household.id);

    // The same person mails a form too (name written differently, same birth date and last 4).
    const head = applicantHead();
    const entered = await enter(form({}, { fullName: head.fullName.toUpperCase().split(' ').reverse().join(', '), dateOfBirth: head.dateOfBirth, ssn: head.ssn }));
    expect(entered.statusCode, entered.body).toBe(201);
    const paper = entered.json().data;
    expect(paper.logNumber).toMatch(/^LU-\d{6}$/);
    const row = await stack.db.selectFrom('applications').selectAll().where('id', '=', paper.applicationId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'in_lottery', channel: 'paper', log_number: paper.logNumber, household_size: 1, entered_by: manager.userId });
    expect(row.postmark_date && new Date(row.postmark_date).toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    expect(await stack.db.selectFrom('households').select(['login', 'language']).where('id', '=', paper.householdId).executeTakeFirstOrThrow()).toEqual({ login: 'none', language: 'es' });

    // The match keys: equal for both channels, and nothing personal in plain.
    const keys = await stack.db.selectFrom('application_match_keys').selectAll().where('opportunity_id', '=', opportunityId).execute();
    expect(keys).toHaveLength(2);
    expect(keys[0]!.match_key).toBe(keys[1]!.match_key);
    expect(keys[0]!.match_key).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[0]!.match_key).toBe(matchKey({ fullName: head.fullName, dateOfBirth: head.dateOfBirth, identifierLast4: '6789' }));
    const stored = JSON.stringify(keys);
    for (const plain of [normaliseName(head.fullName), ...head.fullName.toLowerCase().split(' '), head.dateOfBirth, '19780514', '6789']) expect(stored.toLowerCase()).not.toContain(plain);

    // The pair is shown to the manager (log numbers and channels, no names) and holds the freeze.
    const listed = await stack.app.inject({ url: `${base()}/duplicates`, headers: manager });
    expect(listed.statusCode).toBe(200);
    const [pair] = listed.json().data.items;
    expect([pair.first.channel, pair.second.channel].sort()).toEqual(['online', 'paper']);
    expect(JSON.stringify(listed.json())).not.toContain(head.fullName.split(' ')[0]!);
    expect((await stack.app.inject({ url: `${base()}/duplicates`, headers: applicant })).statusCode).toBe(403);

    // Undecided, it holds the freeze; not if one of the two left the list another way (withdrawn by its household).
    expect(await undecidedPairs(stack.db, opportunityId)).toEqual([`${pair.first.logNumber} / ${pair.second.logNumber}`]);
    await stack.db.updateTable('applications').set({ status: 'withdrawn' }).where('id', '=', onlineId).execute();
    expect(await undecidedPairs(stack.db, opportunityId)).toEqual([]);
    await stack.db.updateTable('applications').set({ status: 'in_lottery' }).where('id', '=', onlineId).execute();

    // Deciding: a reason is required, the kept one must be of the pair; then the other is withdrawn with a letter.
    const decide = (payload: object) => stack.app.inject({ method: 'POST', url: `${base()}/ResolveDuplicate`, headers: manager, payload });
    expect((await decide({ pairId: pair.id, keep: onlineId })).statusCode).toBe(400);
    expect((await decide({ pairId: pair.id, keep: randomUUID(), reason: 'x' })).json()).toMatchObject({ status: 422, data: { code: 'keepOneOfPair' } });
    const decided = await decide({ pairId: pair.id, keep: onlineId, reason: 'Same person; the online application came first' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await stack.db.selectFrom('applications').select('status').where('id', '=', paper.applicationId).executeTakeFirstOrThrow()).status).toBe('withdrawn');
    expect(await stack.db.selectFrom('lottery_duplicate_pairs').select(['kept_application_id', 'reason', 'decided_by']).where('id', '=', pair.id).executeTakeFirstOrThrow()).toEqual({
      kept_application_id: onlineId,
      reason: 'Same person; the online application came first',
      decided_by: manager.userId,
    });
    expect((await decide({ pairId: pair.id, keep: onlineId, reason: 'again' })).json()).toMatchObject({ status: 409, data: { code: 'duplicatePairNotFound' } });

    // The print queue: the first letter and the withdrawal, both in Spanish, to print and mail.
    const queue = await stack.app.inject({ url: '/api/PrintQueue', headers: manager });
    expect(queue.statusCode).toBe(200);
    const letters = queue.json().data.items.filter((l: { logNumber: string }) => l.logNumber === paper.logNumber);
    expect(letters.map((l: { letter: string; language: string }) => `${l.letter}:${l.language}`)).toEqual(['paper-received:es', 'duplicate-withdrawn:es']);
    const pdf = await stack.app.inject({ url: `/api/PrintQueue/${letters[1].id}/pdf`, headers: manager });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdfText(pdf.rawPayload)).toContain(`se retiró la solicitud ${paper.logNumber}`);
    const mailed = await stack.app.inject({ method: 'POST', url: `/api/PrintQueue/${letters[1].id}/mark`, headers: manager, payload: { mark: 'mailed' } });
    expect(mailed.json().data).toMatchObject({ printedAt: expect.any(String), mailedAt: expect.any(String) });
    const toMail = (await stack.app.inject({ url: '/api/PrintQueue', headers: manager })).json().data.items.map((l: { id: string }) => l.id);
    expect(toMail).toContain(letters[0].id);
    expect(toMail).not.toContain(letters[1].id);
    expect((await stack.app.inject({ url: '/api/PrintQueue', headers: applicant })).statusCode).toBe(403);
  });

  it('a household without a login claims its application online with the code of its first letter', async () => {
    const entered = await enter(form({ language: 'es' }, { fullName: 'Carmen Ortiz', dateOfBirth: '1950-01-02', ssn: '219-09-9999', email: 'carmen@example.org' }));
    expect(entered.statusCode, entered.body).toBe(201);
    const paper = entered.json().data;
    const letter = await stack.app.inject({ url: `/api/PrintQueue/${paper.letterId}/pdf`, headers: manager });
    const text = pdfText(letter.rawPayload);
    expect(text).toContain(paper.logNumber);
    const code = /código: ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(text)?.[1];
    expect(code, text).toBeDefined();

    // Later notices of its case reach the household as letters in its language, queued once each.
    const head = await stack.db.selectFrom('households').select('head_user_id').where('id', '=', paper.householdId).executeTakeFirstOrThrow();
    const notice = { userId: head.head_user_id, template: 'lease-up-reminder', params: { applicationId: paper.applicationId, step: 'documentation_review' }, dedupeKey: `test:${paper.applicationId}` };
    const queued = await queueNoticeLetter(stack.db, stack.blobs, notice);
    expect(queued).not.toBeNull();
    expect(await queueNoticeLetter(stack.db, stack.blobs, notice)).toEqual(queued);
    const reminder = await stack.db.selectFrom('mailed_letters').select(['letter', 'language', 'application_id']).where('id', '=', queued!.id).executeTakeFirstOrThrow();
    expect(reminder).toEqual({ letter: 'lease-up-reminder', language: 'es', application_id: paper.applicationId });
    expect(await queueNoticeLetter(stack.db, stack.blobs, { ...notice, userId: applicant.userId })).toBeNull();

    const resident = await newResident(stack.app, stack.db);
    const claim = (c: string, headers = resident.headers) => stack.app.inject({ method: 'POST', url: '/api/PaperApplication/claim', headers, payload: { code: c, dateOfBirth: '1950-01-02' } });
    expect((await claim('ZZZZ-ZZZZ')).json()).toMatchObject({ status: 404, data: { code: 'invalidClaimCode' } });
    expect((await claim('not a code')).statusCode).toBe(400);
    // The demo applicant already has a household of its own.
    expect((await claim(code!, applicant)).json()).toMatchObject({ status: 409, data: { code: 'alreadyHasHousehold' } });
    const claimed = await claim(code!.toLowerCase());
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().data.applicationIds).toEqual([paper.applicationId]);
    expect((await claim(code!)).json()).toMatchObject({ status: 404 });
    const mine = await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${paper.applicationId}`, headers: resident.headers });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data.logNumber).toBe(paper.logNumber);
  });
  it('a retried entry (same Idempotency-Key) after a failure makes one user, household and scan, and one first letter with a code that claims it', async () => {
    const headers = { ...manager, 'idempotency-key': `paper-entry-${randomUUID()}` };
    const body = form({}, { fullName: 'Lucía Reintento', dateOfBirth: '1961-03-04', ssn: '219-09-4321' });
    // The first attempt fails after the household and the case were made: its first letter cannot be queued.
    await sql.raw('create sequence paper_retry_failures').execute(stack.db);
    await sql.raw(`create function paper_retry_fail_once() returns trigger language plpgsql as $$ begin if nextval('paper_retry_failures') = 1 then raise exception 'simulated failure'; end if; return new; end $$`).execute(stack.db);
    await sql.raw('create trigger paper_retry_fail_once before insert on mailed_letters for each row execute function paper_retry_fail_once()').execute(stack.db);
    const lettersBefore = await storedBlobs('letters/mail/');
    let first, retry;
    try {
      first = await enter(body, headers);
      retry = await enter(body, headers);
    } finally {
      await sql.raw('drop trigger paper_retry_fail_once on mailed_letters').execute(stack.db);
      await sql.raw('drop function paper_retry_fail_once').execute(stack.db);
      await sql.raw('drop sequence paper_retry_failures').execute(stack.db);
    }
    expect(first.statusCode, first.body).toBe(500);
    expect(retry.statusCode, retry.body).toBe(201);
    const paper = retry.json().data;

    const users = await stack.db.selectFrom('users').select('id').where('first_name', '=', 'Lucía Reintento').execute();
    expect(users).toHaveLength(1);
    const households = await stack.db.selectFrom('households').select(['id', 'claim_code_hash']).where('head_user_id', '=', users[0]!.id).execute();
    expect(households.map((h) => h.id)).toEqual([paper.householdId]);
    expect(await stack.db.selectFrom('household_documents').select('id').where('household_id', '=', paper.householdId).execute()).toHaveLength(1);
    expect((await householdBlobs()).filter((k) => k.startsWith(`households/${paper.householdId}/`))).toHaveLength(1);
    expect(await stack.db.selectFrom('applications').select('id').where('household_id', '=', paper.householdId).execute()).toEqual([{ id: paper.applicationId }]);

    // One first letter, and the code it prints is the one the household's claim is checked against.
    const letters = await stack.db.selectFrom('mailed_letters').select('id').where('application_id', '=', paper.applicationId).where('letter', '=', 'paper-received').execute();
    expect(letters).toEqual([{ id: paper.letterId }]);
    // The letter the first attempt could not queue left no PDF behind.
    const letterRow = await stack.db.selectFrom('mailed_letters').select('blob_key').where('id', '=', paper.letterId).executeTakeFirstOrThrow();
    expect((await storedBlobs('letters/mail/')).filter((k) => !lettersBefore.includes(k))).toEqual([letterRow.blob_key]);
    const text = pdfText((await stack.app.inject({ url: `/api/PrintQueue/${paper.letterId}/pdf`, headers: manager })).rawPayload);
    const code = /código: ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(text)?.[1];
    expect(code, text).toBeDefined();
    expect(claimCodeHash(code!.replace('-', ''))).toBe(households[0]!.claim_code_hash);
  });
  it("a letter of a case goes to the print queue of the case's organisation, not the household's", async () => {
    // A household entered by organisation A (the demo manager's) with a case of organisation B.
    const entered = await enter(form({}, { fullName: 'Rosa Dos Oficinas', dateOfBirth: '1970-07-08', ssn: '219-09-5678' }));
    expect(entered.statusCode, entered.body).toBe(201);
    const paper = entered.json().data;
    const orgB = await stack.db.insertInto('organizations').values({ name: 'Other Office', slug: `other-office-${randomUUID().slice(0, 6)}` }).returning('id').executeTakeFirstOrThrow();
    const opportunityB = await stack.db
      .insertInto('opportunities')
      .values({ organization_id: orgB.id, name: 'Other Office Homes', kind: 'rental', address: '1 Other St', lottery_end_date: deadline, mail_grace_days: 5, published: true, selection: 'lottery', amenities: '[]', requirements: '[]', income_ranges: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const scan = await stack.db.selectFrom('household_documents').select('id').where('household_id', '=', paper.householdId).executeTakeFirstOrThrow();
    const caseB = await admitPaperApplication(stack.db, { opportunityId: opportunityB.id, householdId: paper.householdId, postmarkDate: new Date().toISOString().slice(0, 10), householdSize: 1, householdIncome: 31_200, formDocumentId: scan.id, enteredBy: manager.userId, groups: [] });
    const managerB = await stack.db.insertInto('users').values({ username: `mgr-b-${randomUUID().slice(0, 6)}`, email: `mgr-b-${randomUUID().slice(0, 6)}@example.org`, first_name: 'Office', last_name: 'B', role: 'Manager', password_hash: 'x', organization_id: orgB.id }).returning('id').executeTakeFirstOrThrow();
    const headersB = { authorization: `Bearer ${stack.app.signAccessToken({ sub: managerB.id, role: 'Manager' }).token}` };

    const head = await stack.db.selectFrom('households').select('head_user_id').where('id', '=', paper.householdId).executeTakeFirstOrThrow();
    const letter = await queueNoticeLetter(stack.db, stack.blobs, { userId: head.head_user_id, template: 'lease-up-reminder', params: { applicationId: caseB.applicationId, step: 'documentation_review' }, dedupeKey: `test:${caseB.applicationId}` });
    expect(letter).not.toBeNull();
    const queueOf = async (headers: Record<string, string>) => {
      const queue = await stack.app.inject({ url: '/api/PrintQueue?show=all&limit=100', headers });
      expect(queue.statusCode).toBe(200);
      return queue.json().data.items.map((l: { id: string }) => l.id);
    };
    expect(await queueOf(headersB)).toEqual([letter!.id]);
    expect(await queueOf(manager)).not.toContain(letter!.id);
    expect((await stack.app.inject({ url: `/api/PrintQueue/${letter!.id}/pdf`, headers: headersB })).headers['content-type']).toBe('application/pdf');
  });
});
