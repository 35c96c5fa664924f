import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities';
import { openLottery } from '../../api/services/lottery';
import { keyIdOf } from '../../infra/crypto';
import { dataKeys, useDataKeys } from '../../infra/data-keys';
import { queueNoticeLetter } from '../../infra/paper/mailed-letters';
import { DAY } from '../../domain/time';
import { adultMember, multipart, newResident, tinyPdf } from '../helpers/household';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8').normalize('NFC').replace(/\s+/g, ' ');

/**
 * Claiming a paper application (issues 45 and 51): the claim needs the letter's code and the
 * head's date of birth, is throttled like a password, refuses an expired code with its own
 * message, survives a data-key rotation and an acting-for session cannot make it; the office can
 * issue a new code; the letter that printed a code loses its PDF once mailed; and after a claim the
 * notices and the TIC of the household's running cases reach the new head, not the placeholder.
 */
describe('claiming a paper application', () => {
  let stack: Stack;
  let manager: { authorization: string; userId: string };
  let opportunityId: string;
  let deadline: string;

  interface Entered {
    applicationId: string;
    householdId: string;
    letterId: string;
    code: string;
    dateOfBirth: string;
  }

  const letterText = async (letterId: string) => {
    const pdf = await stack.app.inject({ url: `/api/PrintQueue/${letterId}/pdf`, headers: manager });
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    return pdfText(pdf.rawPayload);
  };
  const codeIn = (text: string) => {
    const code = /claim code: ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(text)?.[1];
    expect(code, text).toBeDefined();
    return code!;
  };

  async function enterPaper(): Promise<Entered> {
    const dateOfBirth = `19${String(40 + Math.floor(Math.random() * 50))}-0${1 + Math.floor(Math.random() * 9)}-1${Math.floor(Math.random() * 9)}`;
    const ssn = `2${String(Math.floor(Math.random() * 100)).padStart(2, '0')}-1${Math.floor(Math.random() * 10)}-${String(1000 + Math.floor(Math.random() * 9000))}`;
    const form = {
      members: [adultMember({ fullName: `Paper ${randomUUID().slice(0, 6)}`, dateOfBirth, ssn, preferredLanguage: 'en' })],
      incomes: [],
      householdIncome: 31_200,
      address: { line1: '12 Mott Ave', city: 'Bronx', state: 'NY', zip: '10451', mailingSameAsLiving: true },
      language: 'en',
      postmarkDate: new Date().toISOString().slice(0, 10),
    };
    const m = multipart({ application: JSON.stringify(form) }, [{ name: 'form-scan.pdf', body: tinyPdf() }]);
    const entered = await stack.app.inject({ method: 'POST', url: `/api/OpportunityLottery/${opportunityId}/paper-applications`, payload: m.payload, headers: { ...m.headers, ...manager } });
    expect(entered.statusCode, entered.body).toBe(201);
    const data = entered.json().data as { applicationId: string; householdId: string; letterId: string };
    return { ...data, code: codeIn(await letterText(data.letterId)), dateOfBirth };
  }

  const claim = (payload: object, headers: Record<string, string>, remoteAddress?: string) =>
    stack.app.inject({ method: 'POST', url: '/api/PaperApplication/claim', headers, payload, ...(remoteAddress ? { remoteAddress } : {}) });

  beforeAll(async () => {
    stack = await startStack();
    manager = await signIn(stack.app, 'Manager');
    const org = await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow();
    deadline = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    ({ id: opportunityId } = await stack.db
      .insertInto('opportunities')
      .values({ organization_id: org.organization_id!, name: 'Claim Court', kind: 'rental', address: '3 Claim Ct', lottery_end_date: deadline, mail_grace_days: 5, published: true, selection: 'lottery', amenities: '[]', requirements: '[]', income_ranges: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow());
    await stack.db.insertInto('units').values({ opportunity_id: opportunityId, unit_number: '1A', bedroom_type: '1 bedroom', address: '3 Claim Ct', accessibility: '[]', monthly_rent: 900, ami_percent: 50 }).execute();
    await openLottery({ db: stack.db, temporal: stack.temporal, taskQueue: stack.config.TEMPORAL_TASK_QUEUE }, opportunityId);
    await eventually(async () => (await stack.db.selectFrom('opportunity_lotteries').select('state_version').where('opportunity_id', '=', opportunityId).executeTakeFirst())?.state_version, 30_000, 'the lottery projected');
  }, 240_000);
  afterAll(() => stack?.close());

  it("needs the head of household's date of birth with the code; a wrong date answers as a wrong code", async () => {
    const paper = await enterPaper();
    const resident = await newResident(stack.app, stack.db);
    expect((await claim({ code: paper.code }, resident.headers)).json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    expect((await claim({ code: paper.code, dateOfBirth: '1901-01-01' }, resident.headers)).json()).toMatchObject({ status: 404, data: { code: 'invalidClaimCode' } });
    const claimed = await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, resident.headers);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().data).toEqual({ householdId: paper.householdId, applicationIds: [paper.applicationId] });
  });

  it('the guessing attack: wrong codes in a row from one signed-in account get 429 within 10 tries, whatever address they come from', async () => {
    const paper = await enterPaper();
    const attacker = await newResident(stack.app, stack.db);
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) {
      // A code of the alphabet that is not this household's (and not anyone's: 40 bits).
      const guess = `ZZZZ${'ABCDEFGHJK'[i]}${'23456789AB'[i]}ZZ`;
      const r = await claim({ code: guess, dateOfBirth: paper.dateOfBirth }, attacker.headers, `198.51.100.${i + 1}`);
      answers.push(r.statusCode);
      if (r.statusCode === 429) {
        expect(r.json()).toMatchObject({ status: 429, data: { code: 'tooManyAttempts' } });
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        break;
      }
      expect(r.json()).toMatchObject({ status: 404, data: { code: 'invalidClaimCode' } });
    }
    expect(answers).toContain(429);
    // Blocked, even the right code waits: the attacker cannot test a guess by its answer.
    expect((await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, attacker.headers, '198.51.100.200')).statusCode).toBe(429);
    // The counters are rows in PostgreSQL, which every API replica reads.
    const keys = await stack.db.selectFrom('auth_throttles').select('key').where('key', 'like', 'paper-claim:%').execute();
    expect(keys.map((k) => k.key)).toContain(`paper-claim:user:${attacker.userId}`);
    // The household is still there to be claimed by its own member.
    const owner = await newResident(stack.app, stack.db);
    expect((await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, owner.headers)).statusCode).toBe(200);
  });

  it('a code lasts 90 days: past that it is refused with its own message (410), and the next letter carries a new one', async () => {
    const paper = await enterPaper();
    const row = await stack.db.selectFrom('households').select('claim_code_expires_at').where('id', '=', paper.householdId).executeTakeFirstOrThrow();
    const days = (row.claim_code_expires_at!.getTime() - Date.now()) / DAY;
    expect(Math.round(days)).toBe(90);
    await stack.db.updateTable('households').set({ claim_code_expires_at: new Date(Date.now() - DAY) }).where('id', '=', paper.householdId).execute();
    const resident = await newResident(stack.app, stack.db);
    const expired = await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, resident.headers);
    expect(expired.json()).toMatchObject({ status: 410, message: 'This claim code has expired. Ask the housing office for a new one', data: { code: 'claimCodeExpired' } });
    expect((await stack.db.selectFrom('households').select('login').where('id', '=', paper.householdId).executeTakeFirstOrThrow()).login).toBe('none');

    // The next letter the household gets (a case notice) comes with a new code, once.
    const placeholder = (await stack.db.selectFrom('households').select('head_user_id').where('id', '=', paper.householdId).executeTakeFirstOrThrow()).head_user_id;
    const activities = createActivities({ db: stack.db, blobs: stack.blobs });
    const notice = { userId: placeholder, template: 'lease-up-reminder', params: { applicationId: paper.applicationId, step: 'documentation_review' }, dedupeKey: `test:${randomUUID()}` };
    expect(await activities.sendNotice(notice)).toMatchObject({ channels: ['print'] });
    expect(await activities.sendNotice(notice)).toMatchObject({ channels: ['print'] });
    const renewed = await stack.db.selectFrom('mailed_letters').select('id').where('household_id', '=', paper.householdId).where('letter', '=', 'claim-code').execute();
    expect(renewed).toHaveLength(1);
    const code = codeIn(await letterText(renewed[0]!.id));
    expect((await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, resident.headers)).json()).toMatchObject({ status: 404 });
    expect((await claim({ code, dateOfBirth: paper.dateOfBirth }, resident.headers)).statusCode).toBe(200);
  });

  it('a code issued before a data-key rotation still claims', async () => {
    const paper = await enterPaper();
    const before = dataKeys();
    const next = randomBytes(32);
    // The rotation: a new key encrypts from now on; the old one stays in the ring to read.
    useDataKeys({ currentId: keyIdOf(next), current: next, byId: new Map([[keyIdOf(next), next]]) });
    try {
      const resident = await newResident(stack.app, stack.db);
      const claimed = await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, resident.headers);
      expect(claimed.statusCode, claimed.body).toBe(200);
    } finally {
      useDataKeys(before);
    }
  });

  it('someone acting for a household (an impersonated session) cannot claim into it', async () => {
    const paper = await enterPaper();
    const resident = await newResident(stack.app, stack.db);
    const actingFor = { authorization: `Bearer ${stack.app.signAccessToken({ sub: resident.userId, role: 'User', realUserId: manager.userId }).token}` };
    expect((await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, actingFor)).json()).toMatchObject({ status: 403, data: { code: 'notAllowedWhileImpersonating' } });
    expect((await stack.db.selectFrom('households').select('login').where('id', '=', paper.householdId).executeTakeFirstOrThrow()).login).toBe('none');
  });

  it('the office issues a new code: the old one stops working, the new one comes in a letter of its own', async () => {
    const paper = await enterPaper();
    const reissue = (applicationId: string, headers: Record<string, string>) => stack.app.inject({ method: 'POST', url: `/api/PaperApplication/${applicationId}/claim-code`, headers });
    const resident = await newResident(stack.app, stack.db);
    expect((await reissue(paper.applicationId, resident.headers)).statusCode).toBe(403);
    expect((await reissue(randomUUID(), manager)).json()).toMatchObject({ status: 404 });
    const otherOrg = await stack.db.insertInto('organizations').values({ name: 'Elsewhere', slug: `elsewhere-${randomUUID().slice(0, 6)}` }).returning('id').executeTakeFirstOrThrow();
    const outsider = await stack.db.insertInto('users').values({ username: `mgr-${randomUUID().slice(0, 6)}`, email: `mgr-${randomUUID().slice(0, 6)}@example.org`, first_name: 'Other', last_name: 'Manager', role: 'Manager', password_hash: 'x', organization_id: otherOrg.id }).returning('id').executeTakeFirstOrThrow();
    expect((await reissue(paper.applicationId, { authorization: `Bearer ${stack.app.signAccessToken({ sub: outsider.id, role: 'Manager' }).token}` })).statusCode).toBe(403);

    const issued = await reissue(paper.applicationId, manager);
    expect(issued.statusCode, issued.body).toBe(201);
    const { letterId, expiresAt } = issued.json().data as { letterId: string; expiresAt: string };
    expect(Math.round((Date.parse(expiresAt) - Date.now()) / DAY)).toBe(90);
    const text = await letterText(letterId);
    expect(text).toContain('Your new claim code');
    const code = codeIn(text);
    expect(code).not.toBe(paper.code);
    expect((await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, resident.headers)).json()).toMatchObject({ status: 404, data: { code: 'invalidClaimCode' } });
    expect((await claim({ code, dateOfBirth: paper.dateOfBirth }, resident.headers)).statusCode).toBe(200);
    expect((await reissue(paper.applicationId, manager)).json()).toMatchObject({ status: 409, data: { code: 'alreadyClaimed' } });
  });

  it('a letter that printed a claim code loses its PDF once mailed (410 after); other letters keep theirs', async () => {
    const paper = await enterPaper();
    const mark = (id: string, m: 'printed' | 'mailed') => stack.app.inject({ method: 'POST', url: `/api/PrintQueue/${id}/mark`, headers: manager, payload: { mark: m } });
    const pdf = (id: string) => stack.app.inject({ url: `/api/PrintQueue/${id}/pdf`, headers: manager });
    expect((await mark(paper.letterId, 'printed')).statusCode).toBe(200);
    expect((await pdf(paper.letterId)).statusCode).toBe(200);
    expect((await mark(paper.letterId, 'mailed')).statusCode).toBe(200);
    const gone = await pdf(paper.letterId);
    expect(gone.json()).toMatchObject({ status: 410, data: { code: 'letterPurged' } });
    const row = await stack.db.selectFrom('mailed_letters').select(['blob_key', 'purged_at']).where('id', '=', paper.letterId).executeTakeFirstOrThrow();
    expect(row.purged_at).not.toBeNull();
    expect(await stack.blobs.get(row.blob_key)).toBeNull();
    // Marked mailed again: still gone, nothing fails.
    expect((await mark(paper.letterId, 'mailed')).statusCode).toBe(200);

    const head = await stack.db.selectFrom('households').select('head_user_id').where('id', '=', paper.householdId).executeTakeFirstOrThrow();
    const reminder = await queueNoticeLetter(stack.db, stack.blobs, { userId: head.head_user_id, template: 'lease-up-reminder', params: { applicationId: paper.applicationId, step: 'documentation_review' }, dedupeKey: `test:${randomUUID()}` });
    expect((await mark(reminder!.id, 'mailed')).statusCode).toBe(200);
    expect((await pdf(reminder!.id)).statusCode).toBe(200);
  });

  it("after a claim, the running case's notices and its TIC signers are the new head, not the placeholder", async () => {
    const paper = await enterPaper();
    const placeholder = (await stack.db.selectFrom('households').select('head_user_id').where('id', '=', paper.householdId).executeTakeFirstOrThrow()).head_user_id;
    const resident = await newResident(stack.app, stack.db);
    expect((await claim({ code: paper.code, dateOfBirth: paper.dateOfBirth }, resident.headers)).statusCode).toBe(200);
    const activities = createActivities({ db: stack.db, blobs: stack.blobs });

    // The case was started with the placeholder head: its offer notice reaches the new head by email.
    const dedupeKey = `lease-up:${paper.applicationId}:offer-made-1`;
    const sent = await activities.sendNotice({ userId: placeholder, template: 'lease-up-offer-made', params: { applicationId: paper.applicationId }, dedupeKey });
    expect(sent).toMatchObject({ queued: true, channels: ['email'] });
    const rows = await stack.db.selectFrom('notification_outbox').select(['user_id', 'to_address']).where('notice_key', '=', dedupeKey).execute();
    const email = (await stack.db.selectFrom('users').select('email').where('id', '=', resident.userId).executeTakeFirstOrThrow()).email;
    expect(rows).toEqual([{ user_id: resident.userId, to_address: email }]);
    expect(JSON.stringify(rows)).not.toContain('no-login.invalid');
    expect(await stack.db.selectFrom('mailed_letters').select('id').where('dedupe_key', '=', `notice:${dedupeKey}`).execute()).toEqual([]);

    const signers = await activities.leaseUpTicSigners({ householdId: paper.householdId, headUserId: placeholder, today: new Date().toISOString().slice(0, 10) });
    expect(signers[0]).toMatchObject({ id: resident.userId, isHead: true });
  });

  it('the OpenAPI document lists the new answers', async () => {
    const doc = (await stack.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/api/PaperApplication/claim']!.post!.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '409', '410', '429']));
    expect(Object.keys(doc.paths['/api/PrintQueue/{letterId}/pdf']!.get!.responses)).toEqual(expect.arrayContaining(['403', '404', '410']));
    expect(Object.keys(doc.paths['/api/PaperApplication/{applicationId}/claim-code']!.post!.responses)).toEqual(expect.arrayContaining(['2XX', '401', '403', '404', '409']));
  });
});
