import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyRing, keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { resealIntake } from '../../infra/key-rotation';
import { adultMember, multipart, newResident, tinyPdf } from '../helpers/household';
import { signIn, startStack, type Stack } from '../helpers/stack';

/**
 * The intake assistant drives a new household's whole profile to 100% through
 * /api/intake, one question at a time: each entry is shown back and saved only once confirmed,
 * through the forms' own services; a bad answer gets the form's own message; the conversation
 * pauses and resumes from PostgreSQL (sealed); FAQ questions are answered on the way.
 */
let stack: Stack;
let rosa: { userId: string; headers: { authorization: string } };

beforeAll(async () => {
  stack = await startStack({ worker: false });
  rosa = await newResident(stack.app, stack.db);
}, 120_000);
afterAll(async () => {
  if (stack) useDataKeys(keyRingFromConfig(stack.config));
  await stack?.close();
});

type View = { question: { section: string; step: string; field?: { name: string; kind: string }; members?: { id: string; name: string }[]; entry?: Record<string, unknown>; document?: { documentType: string }; onFile?: number }; paused: boolean; completion: number; saved?: string; faq?: unknown[] };
const seen: string[] = [];
async function turn(payload: object, status = 200): Promise<{ data: View; message: string }> {
  const r = await stack.app.inject({ method: 'POST', url: '/api/intake', headers: rosa.headers, payload });
  seen.push(r.body);
  expect(r.statusCode, r.body).toBe(status);
  return r.json();
}
async function answer(field: string, value: unknown): Promise<View> {
  const { data } = await turn({ action: 'answer', answer: value });
  return data;
}
/** Answers the questions in order, checking each is the one asked. */
async function walk(answers: [string, unknown][]): Promise<View> {
  let view = (await current()).question;
  let last!: View;
  for (const [name, value] of answers) {
    expect(view.step === 'field' ? view.field?.name : view.step, `asked before ${name}`).toBe(name);
    last = await answer(name, value);
    view = last.question;
  }
  return last;
}
async function current(): Promise<View> {
  const r = await stack.app.inject({ url: '/api/intake', headers: rosa.headers });
  seen.push(r.body);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data;
}
const formMessage = async (url: string, payload: object) => {
  const r = await stack.app.inject({ method: 'POST', url, headers: rosa.headers, payload });
  expect(r.statusCode).toBe(400);
  return r.json().message as string;
};

describe('the intake assistant', () => {
  it('walks a new household to a complete profile, one confirmed entry at a time', async () => {
    const start = await current();
    expect(start).toMatchObject({ question: { section: 'member', step: 'field', field: { name: 'fullName', kind: 'text' } }, paused: false, completion: 0 });

    await walk([['fullName', 'Rosa Diaz'], ['relationship', 'self'], ['dateOfBirth', '1975-03-09'], ['gender', 'female'], ['_idKind', 'ssn']]);
    // A bad SSN: the same message as the member form gives for it, and the question is asked again.
    const bad = await turn({ action: 'answer', answer: '12-34' }, 400);
    expect(bad.message).toBe(await formMessage('/api/Household/CreateApplicantOrMember', adultMember({ ssn: '12-34' })));
    expect((await current()).question.field?.name).toBe('ssn');
    const confirm = await walk([
      ['ssn', '123-45-6789'], ['races', ['white']], ['ethnicity', 'hispanic_or_latino'], ['maritalStatus', 'single'], ['studentStatus', 'not_a_student'],
      ['studentEligibility', 'not_applicable'], ['email', 'rosa@example.org'], ['headOfHousehold', true], ['disability', false],
    ]);
    // Shown back before saving (the identifier masked); nothing is saved yet.
    expect(confirm.question).toMatchObject({ step: 'confirm', entry: { fullName: 'Rosa Diaz', ssn: '••••6789', relationship: 'self' } });
    expect(await stack.db.selectFrom('household_members').select('id').execute().then((rows) => rows.length)).toBeGreaterThan(0); // the demo households
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', rosa.userId).executeTakeFirstOrThrow();
    const members = () => stack.db.selectFrom('household_members').select(['id', 'full_name']).where('household_id', '=', household.id).execute();
    expect(await members()).toEqual([]);
    // Changing one answer goes back to the entry.
    expect((await turn({ action: 'confirm', confirm: false, change: 'maritalStatus' })).data.question.field?.name).toBe('maritalStatus');
    expect((await answer('maritalStatus', 'married')).question).toMatchObject({ step: 'confirm', entry: { maritalStatus: 'married' } });
    const saved = await turn({ action: 'confirm', confirm: true });
    expect(saved.data).toMatchObject({ saved: 'member', question: { section: 'member', step: 'more', onFile: 1 } });
    expect(await members()).toEqual([expect.objectContaining({ full_name: 'Rosa Diaz' })]);

    // Pause: the conversation is kept in PostgreSQL, sealed, and resumes at the same question.
    expect((await turn({ action: 'pause' })).data.paused).toBe(true);
    const stored = await stack.db.selectFrom('intake_conversations').select(['state', 'paused']).where('user_id', '=', rosa.userId).executeTakeFirstOrThrow();
    expect(stored.paused).toBe(true);
    expect(JSON.stringify(stored.state)).toMatch(/^\{"\$sealed":"v2:/);
    expect(await current()).toMatchObject({ paused: false, question: { section: 'member', step: 'more' } });

    // No other member; the address, with the address form's message for a bad ZIP code.
    await turn({ action: 'answer', answer: false });
    await walk([['line1', '12 Pine St']]);
    expect((await turn({ action: 'skip' })).data.question.field?.name).toBe('city');
    await walk([['city', 'Brooklyn'], ['state', 'NY']]);
    const badZip = await turn({ action: 'answer', answer: '123' }, 400);
    expect(badZip.message).toBe(await formMessage('/api/Household/addOrUpdateApplicantAddress', { line1: '12 Pine St', city: 'Brooklyn', state: 'NY', zip: '123' }));
    // A required question cannot be skipped.
    expect((await turn({ action: 'skip' }, 400)).message).toBe('Required');
    expect((await walk([['zip', '11201'], ['mailingSameAsLiving', true]])).question.step).toBe('confirm');
    expect((await turn({ action: 'confirm', confirm: true })).data).toMatchObject({ saved: 'address', question: { section: 'incomeQuestion', field: { name: 'answer' } } });

    // Income: yes, one award from Social Security.
    await answer('answer', true);
    expect((await turn({ action: 'confirm', confirm: true })).data.question).toMatchObject({ section: 'income', step: 'field', field: { name: 'memberId', kind: 'member' } });
    const asked = await current();
    const rosaId = asked.question.members![0]!.id;
    expect(asked.question.members).toEqual([{ id: rosaId, name: 'Rosa Diaz' }]);
    await walk([['memberId', rosaId], ['incomeType', 'social_security']]);
    const badAmount = await turn({ action: 'answer', answer: 'lots' }, 400);
    expect(badAmount.message).toBe(await formMessage('/api/HouseholdIncome/CreateOrUpdateIncome', { memberId: rosaId, incomeType: 'social_security', amount: 'lots', frequency: 'monthly' }));
    await walk([['amount', '1,250'], ['frequency', 'monthly']]);
    expect((await turn({ action: 'confirm', confirm: true })).data).toMatchObject({ saved: 'income', question: { section: 'income', step: 'more', onFile: 1 } });
    await turn({ action: 'answer', answer: false });

    // No assets; housing choices.
    await answer('hasAny', false);
    expect((await turn({ action: 'confirm', confirm: true })).data).toMatchObject({ saved: 'assetQuestion', question: { section: 'housingChoices' } });
    await walk([['unitSize', 'one_bedroom'], ['preferredCounties', ['kings']], ['interests', ['section8']], ['pet', false]]);
    const afterChoices = await turn({ action: 'confirm', confirm: true });
    // The one document the income needs is asked for, uploaded through My Documents' checks.
    expect(afterChoices.data).toMatchObject({ saved: 'housingChoices', question: { section: 'documents', step: 'upload', document: { documentType: 'award_letter' } } });
    expect(afterChoices.data.completion).toBe(85);
    const notPdf = multipart({}, [{ name: 'award.pdf', body: Buffer.from('not a pdf at all') }]);
    const refused = await stack.app.inject({ method: 'POST', url: '/api/intake/document', headers: { ...notPdf.headers, ...rosa.headers }, payload: notPdf.payload });
    expect(refused.statusCode).toBe(415);
    const file = multipart({}, [{ name: 'award.pdf', body: tinyPdf() }]);
    const uploaded = await stack.app.inject({ method: 'POST', url: '/api/intake/document', headers: { ...file.headers, ...rosa.headers }, payload: file.payload });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    // Then the member's proof document (section 5: one per member).
    expect(uploaded.json().data).toMatchObject({ saved: 'document', completion: 85, question: { section: 'documents', step: 'upload', document: { documentType: 'identity', incomeId: null, memberName: 'Rosa Diaz' } } });
    const proof = multipart({}, [{ name: 'id.pdf', body: tinyPdf() }]);
    const proved = await stack.app.inject({ method: 'POST', url: '/api/intake/document', headers: { ...proof.headers, ...rosa.headers }, payload: proof.payload });
    expect(proved.json().data).toMatchObject({ saved: 'document', completion: 100, question: { section: 'done', step: 'done' } });

    // The profile page says the same.
    const profile = await stack.app.inject({ url: '/api/Household/profile', headers: rosa.headers });
    expect(profile.json().data.completion).toMatchObject({ percent: 100, missing: [] });
    expect((await stack.db.selectFrom('households').select('profile_completion').where('id', '=', household.id).executeTakeFirstOrThrow()).profile_completion).toBe(100);
  });

  it('answers questions from the FAQ without losing its place, and never speaks of qualifying', async () => {
    const before = await current();
    const { data } = await turn({ action: 'ask', question: 'Which files can I upload?' });
    expect(data.faq!.length).toBeGreaterThan(0);
    expect(JSON.stringify(data.faq)).toContain('Which files can I upload?');
    expect(data.question).toEqual(before.question);
    expect(seen.join('\n')).not.toMatch(/qualif/i);
  });

  it('is for residents: others are refused, bad turns get a 4xx', async () => {
    const manager = await signIn(stack.app, 'Manager');
    expect((await stack.app.inject({ url: '/api/intake', headers: { authorization: manager.authorization } })).statusCode).toBe(403);
    expect((await stack.app.inject({ url: '/api/intake' })).statusCode).toBe(401);
    expect((await turn({ action: 'dance' }, 400)).message).toMatch(/Please send an answer/);
    expect((await turn({ action: 'confirm', confirm: true }, 400)).message).toBe('Nothing is waiting for your confirmation');
    const restarted = await turn({ action: 'restart' });
    expect(restarted.data.question).toMatchObject({ section: 'member', step: 'more', onFile: 1 });
  });

  it('a key rotation re-seals the conversation, which goes on where it was', async () => {
    const before = await current();
    useDataKeys(createKeyRing(randomBytes(32).toString('base64'), [stack.config.DATA_ENCRYPTION_KEY]));
    expect(await resealIntake(stack.db)).toBe(1);
    expect(await resealIntake(stack.db)).toBe(0);
    expect((await current()).question).toEqual(before.question);
  });
});
