import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockProfile, unlockProfile } from '../../infra/db/repositories/profile-locks';
import { createFieldCipher } from '../../infra/crypto';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { adultMember, multipart, newResident, recentPayDates, tinyPdf } from '../helpers/household';
import { grantAccess, organizationId } from '../helpers/ambassador';

/** The household profile through the API on the real stack (spec sections 3, 4, 5, 7). */
describe('household profile API', () => {
  let stack: Stack;
  let rosa: Awaited<ReturnType<typeof newResident>>;
  type Headers = { authorization: string };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
    stack.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

  beforeAll(async () => {
    stack = await startStack();
    rosa = await newResident(stack.app, stack.db);
  });
  afterAll(() => stack?.close());

  it('keeps the seeded demo households at 100% under the completion rule', async () => {
    for (const role of ['User', 'Tenant'] as const) {
      const who = await signIn(stack.app, role);
      const r = await call('GET', '/api/Household/profile', who);
      expect(r.statusCode).toBe(200);
      expect(r.json().data.completion).toMatchObject({ percent: 100, missing: [] });
      expect(r.json().data.members).toHaveLength(2);
    }
  });

  it('fills a household to 100% and stores the completion lease-up apply reads', async () => {
    const start = await call('POST', '/api/Household/profile', rosa.headers);
    expect(start.json().data.completion.percent).toBe(0);
    const householdId: string = start.json().data.householdId;

    const head = await call('POST', '/api/Household/CreateApplicantOrMember', rosa.headers, adultMember());
    expect(head.statusCode).toBe(201);
    expect(head.json().data).toMatchObject({ ssnLast4: '6789', itinLast4: null });
    expect(JSON.stringify(head.json())).not.toContain('123456789');
    const spouse = await call('POST', '/api/Household/CreateApplicantOrMember', rosa.headers, adultMember({
      fullName: 'Tomas Diaz', relationship: 'spouse', gender: 'male', ssn: null, alienRegistrationNumber: 'A12345678', headOfHousehold: false, email: '',
    }));
    expect(spouse.statusCode).toBe(201);

    // SSN and A-number are encrypted at rest: the raw columns hold no plain number, the key opens them.
    const raw = await stack.db.selectFrom('household_members').selectAll().where('household_id', '=', householdId).execute();
    const rawText = JSON.stringify(raw);
    expect(rawText).not.toContain('123456789');
    expect(rawText).not.toContain('12345678"');
    const headRow = raw.find((m) => m.relationship === 'self')!;
    expect(createFieldCipher(stack.config.DATA_ENCRYPTION_KEY).decrypt(headRow.ssn_encrypted!)).toBe('123456789');

    expect((await call('POST', '/api/Household/addOrUpdateApplicantAddress', rosa.headers, { line1: '77 Grand Concourse', city: 'Bronx', state: 'NY', zip: '10451' })).statusCode).toBe(200);
    const income = await call('POST', '/api/HouseholdIncome/CreateOrUpdateIncome', rosa.headers, {
      incomeType: 'employment', memberId: head.json().data.id, employerName: 'Bronx Bakery', startDate: '2022-05-01', amount: '1,850', frequency: 'bi_weekly',
    });
    expect(income.statusCode).toBe(200);
    expect(income.json().data.annualAmount).toBe(48_100);
    const bank = await call('POST', '/api/HouseholdAssets/BankAccounts', rosa.headers, { kind: 'BankAccounts', accountType: 'savings', institution: 'Ponce Bank', last4: '0042', balance: 900, annualIncome: 2 });
    expect(bank.statusCode).toBe(201);
    expect((await call('POST', '/api/HousingChoices/AdditionalPreferences', rosa.headers, { interests: { section8: true }, preferredCounties: ['bronx'] })).statusCode).toBe(200);

    let profile = (await call('GET', '/api/Household/profile', rosa.headers)).json().data;
    expect(profile.completion.percent).toBe(85);
    expect(profile.completion.missing).toEqual(['documentsMissing', 'memberProofMissing']);
    expect((await call('POST', '/api/Household/CompleteProfile', rosa.headers)).json()).toMatchObject({ status: 422, data: { code: 'profileIncomplete' } });

    const upload = await stack.app.inject({
      method: 'POST', url: '/api/Document/UploadDocument',
      ...(() => { const m = multipart({ documentType: 'pay_stub', incomeId: income.json().data.id, memberId: head.json().data.id, payDates: recentPayDates(1, 7) }, [{ name: 'stub.pdf', body: tinyPdf() }]); return { payload: m.payload, headers: { ...m.headers, ...rosa.headers } }; })(),
    });
    expect(upload.statusCode).toBe(201);
    // Section 5: every member needs a proof document; the checklist names each one until it is on file.
    profile = (await call('GET', '/api/Household/profile', rosa.headers)).json().data;
    expect(profile.completion).toMatchObject({ percent: 85, missing: ['memberProofMissing'] });
    const proofs = (await call('GET', '/api/Document/GetRequiredDocs', rosa.headers)).json().data.filter((d: { documentType: string }) => d.documentType === 'identity');
    expect(proofs).toEqual([
      expect.objectContaining({ memberId: head.json().data.id, incomeId: null, uploaded: false }),
      expect.objectContaining({ memberId: spouse.json().data.id, incomeId: null, uploaded: false }),
    ]);
    for (const member of [head, spouse]) {
      const m = multipart({ documentType: 'identity', memberId: member.json().data.id }, [{ name: 'id.pdf', body: tinyPdf() }]);
      expect((await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, ...rosa.headers } })).statusCode).toBe(201);
    }
    profile = (await call('GET', '/api/Household/profile', rosa.headers)).json().data;
    expect(profile.members.map((m: { proofOnFile: boolean }) => m.proofOnFile)).toEqual([true, true]);
    expect(profile.completion.percent).toBe(100);
    const stored = await stack.db.selectFrom('households').select(['profile_completion', 'household_size']).where('id', '=', householdId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ profile_completion: 100, household_size: 2 });
    expect((await call('POST', '/api/Household/CompleteProfile', rosa.headers)).statusCode).toBe(200);
    const final = await call('POST', '/api/Household/FinalProfileSubmission', rosa.headers);
    expect(final.statusCode).toBe(200);
    expect(final.json().data.submittedAt).toBeTruthy();

    // Deleting the only income drops completion again (and the stored column with it).
    await call('DELETE', `/api/HouseholdIncome/${income.json().data.id}`, rosa.headers);
    expect((await stack.db.selectFrom('households').select('profile_completion').where('id', '=', householdId).executeTakeFirstOrThrow()).profile_completion).toBeLessThan(100);
  });

  it('refuses invalid members with the spec messages, never a 5xx', async () => {
    const bad = async (payload: unknown) => {
      const r = await call('POST', '/api/Household/CreateApplicantOrMember', rosa.headers, payload);
      expect(r.statusCode).toBe(400);
      expect(r.json().status).toBe(400);
      return r.json().message as string;
    };
    const young = `${new Date().getUTCFullYear() - 16}-01-01`;
    expect(await bad(adultMember({ dateOfBirth: young, headOfHousehold: false }))).toBe('Applicant must be at least 18 years old');
    expect(await bad(adultMember({ relationship: 'child', email: null, dateOfBirth: young }))).toBe('A head of household cannot be a non-emancipated minor');
    expect(await bad(adultMember({ ssn: '000-00-0000' }))).toMatch(/valid SSN/);
    expect(await bad(adultMember({ ssn: null }))).toBe('Enter at least one of SSN, ITIN or alien registration number');
    expect(await bad(adultMember({ pregnant: true }))).toBe('Required');
    expect(await bad({ fullName: 42, races: 'white' })).toBeTruthy();
    expect(await bad([])).toBeTruthy();
    const notJson = await stack.app.inject({ method: 'POST', url: '/api/Household/CreateApplicantOrMember', headers: { ...rosa.headers, 'content-type': 'application/json' }, payload: '{"fullName":' });
    expect(notJson.statusCode).toBe(400);
    for (const [method, url, body] of [
      ['POST', '/api/HouseholdIncome/create', { incomeType: 'employment', amount: 'lots' }],
      ['POST', '/api/HouseholdAssets/BankAccounts', { kind: 'BankAccounts', last4: 'abcd' }],
      ['POST', '/api/Household/addOrUpdateApplicantAddress', { line1: '' }],
      ['POST', '/api/HousingChoices/rental-assistance', { hasAssistance: 'yes' }],
      ['POST', '/api/SpecialIncome/ZeroIncomeDeclaration', { memberId: 'nope' }],
      ['PUT', '/api/HouseholdAssets/UpdateAssetFlag', { kind: 'Gold' }],
      ['DELETE', '/api/Household/member/not-a-uuid', undefined],
      ['PUT', '/api/Household/UpdateApplicantOrMember', { id: '00000000-0000-4000-8000-000000000000', fullName: '' }],
    ] as const) {
      const r = await call(method, url, rosa.headers, body);
      expect(r.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, `${method} ${url}`).toBeLessThan(500);
      expect(r.json().status).toBe(r.statusCode);
    }
  });

  it('updates a member keeping the identifier on file, and only ever returns its last 4 digits', async () => {
    const who = await newResident(stack.app, stack.db);
    const created = (await call('POST', '/api/Household/CreateApplicantOrMember', who.headers, adultMember({ ssn: null, itin: '912-70-1234' }))).json().data;
    const { ssnLast4: _s, itinLast4: _i, alienRegistrationNumberLast4: _a, age: _age, id, ...fields } = created;
    const updated = await call('PUT', '/api/Household/UpdateApplicantOrMember', who.headers, { ...fields, id, fullName: 'Rosa M. Diaz' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ fullName: 'Rosa M. Diaz', itinLast4: '1234' });
  });

  it('answering NO deletes the entries only after confirmation', async () => {
    const who = await newResident(stack.app, stack.db);
    const householdId = (await call('POST', '/api/Household/profile', who.headers)).json().data.householdId;
    const member = (await call('POST', '/api/Household/CreateApplicantOrMember', who.headers, adultMember())).json().data;
    await call('POST', '/api/HouseholdIncome/create', who.headers, { incomeType: 'social_security', memberId: member.id, amount: 1200, frequency: 'monthly' });
    await call('POST', '/api/HouseholdAssets/TrustAssets', who.headers, { kind: 'TrustAssets', trustType: 'revocable', beneficiaryOrOwner: 'Rosa' });
    await call('POST', '/api/HouseholdAssets/CashBalance', who.headers, { kind: 'CashBalance', amount: 50 });

    const unconfirmed = await call('POST', `/api/Household/updateIncomeQuestionId/${householdId}`, who.headers, { answer: false });
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().data.code).toBe('confirmationRequired');
    expect((await call('GET', '/api/HouseholdIncome', who.headers)).json().data).toHaveLength(1);
    const confirmed = await call('POST', `/api/Household/updateIncomeQuestionId/${householdId}`, who.headers, { answer: false, confirmed: true });
    expect(confirmed.json().data).toEqual({ answer: false, deleted: 1 });
    expect((await call('GET', '/api/HouseholdIncome', who.headers)).json().data).toHaveLength(0);

    expect((await call('PUT', '/api/HouseholdAssets/UpdateTrustAssetFlag', who.headers, { hasAny: false })).statusCode).toBe(409);
    const trust = await call('PUT', '/api/HouseholdAssets/UpdateTrustAssetFlag', who.headers, { hasAny: false, confirmed: true });
    expect(trust.json().data).toMatchObject({ kind: 'TrustAssets', deleted: 1 });
    expect((await call('GET', '/api/HouseholdAssets', who.headers)).json().data.map((a: { kind: string }) => a.kind)).toEqual(['CashBalance']);
    const none = await call('PUT', '/api/HouseholdAssets/UpdateAssetFlag', who.headers, { hasAny: false, confirmed: true });
    expect(none.json().data.deleted).toBe(1);
    expect((await call('GET', '/api/Household/profile', who.headers)).json().data.hasAssets).toBe(false);
  });

  it('keeps every per-kind answer when several arrive at once', async () => {
    const who = await newResident(stack.app, stack.db);
    await call('POST', '/api/Household/profile', who.headers);
    const answers = await Promise.all([
      call('PUT', '/api/HouseholdAssets/UpdateTrustAssetFlag', who.headers, { hasAny: false, confirmed: true }),
      call('PUT', '/api/HouseholdAssets/UpdateLifeInsuranceAssetFlag', who.headers, { hasAny: true }),
      call('PUT', '/api/HouseholdAssets/UpdateEBTCardAssetFlag', who.headers, { hasAny: true }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect((await call('GET', '/api/Household/profile', who.headers)).json().data.assetFlags).toEqual({ TrustAssets: false, LifeInsuranceAssets: true, EBTCards: true });
  });

  it('refuses every edit while the profile is locked, with a clear message', async () => {
    const who = await newResident(stack.app, stack.db);
    const householdId = (await call('POST', '/api/Household/profile', who.headers)).json().data.householdId;
    await lockProfile(stack.db, { householdId, reason: 'recertification', workflowId: null });
    for (const [method, url, body] of [
      ['POST', '/api/Household/CreateApplicantOrMember', adultMember()],
      ['POST', '/api/Household/addOrUpdateApplicantAddress', { line1: '1 Main St', city: 'Bronx', state: 'NY', zip: '10451' }],
      ['POST', '/api/HousingChoices/AdditionalPreferences', { interests: {} }],
      ['PUT', '/api/HouseholdAssets/UpdateAssetFlag', { hasAny: true }],
    ] as const) {
      const r = await call(method, url, who.headers, body);
      expect(r.statusCode, url).toBe(409);
      expect(r.json()).toMatchObject({ data: { code: 'profileLocked' }, message: expect.stringContaining('locked') });
    }
    expect((await call('GET', '/api/Household/profile', who.headers)).json().data.locked).toBe(true);
    await unlockProfile(stack.db, { householdId });
    expect((await call('POST', '/api/Household/CreateApplicantOrMember', who.headers, adultMember())).statusCode).toBe(201);
  });

  it('shows a household only to its members, its organisation managers and ambassadors impersonating', async () => {
    const applicant = await signIn(stack.app, 'User');
    const tenant = await signIn(stack.app, 'Tenant');
    const manager = await signIn(stack.app, 'Manager');
    const ambassador = await signIn(stack.app, 'HousingAmbassador');
    const applicantHh = (await call('GET', '/api/Household/profile', applicant)).json().data.householdId;
    const tenantHh = (await call('GET', '/api/Household/profile', tenant)).json().data.householdId;

    expect((await call('GET', `/api/Household/profile?householdId=${tenantHh}`, applicant)).statusCode).toBe(404);
    expect((await call('GET', `/api/Household/get-user-summary/${applicantHh}`, tenant)).statusCode).toBe(404);
    expect((await call('GET', `/api/HouseholdIncome?householdId=${applicantHh}`, rosa.headers)).statusCode).toBe(404);
    // The manager sees the tenant household of the organisation, not the applicant's (no organisation).
    expect((await call('GET', `/api/Household/profile?householdId=${tenantHh}`, manager)).json().data.members).toHaveLength(2);
    expect((await call('GET', `/api/Household/profile?householdId=${applicantHh}`, manager)).statusCode).toBe(404);
    expect((await call('POST', '/api/Household/CreateApplicantOrMember', manager, adultMember())).statusCode).toBe(403);
    expect((await call('GET', '/api/Household/profile', ambassador)).statusCode).toBe(403);
    // An ambassador impersonating the applicant (who granted access) acts as the applicant.
    await grantAccess(stack.db, { userId: applicant.userId, organizationId: await organizationId(stack.db), requestedBy: ambassador.userId });
    const { token } = stack.app.signAccessToken({ sub: applicant.userId, role: 'User', realUserId: ambassador.userId });
    const impersonated = await call('GET', '/api/Household/profile', { authorization: `Bearer ${token}` });
    expect(impersonated.json().data.householdId).toBe(applicantHh);
    expect((await stack.app.inject({ url: '/api/Household/profile' })).statusCode).toBe(401);
  });

  it('serves lookups from the database with an ETag', async () => {
    const who = await signIn(stack.app, 'User');
    const r = await call('GET', '/api/Lookups', who);
    expect(r.statusCode).toBe(200);
    expect(r.json().data.relationship).toContain('grandparent');
    expect(r.json().data.payFrequency).toEqual(['annually', 'monthly', 'hourly', 'quarterly', 'bi_weekly', 'weekly', 'semimonthly', 'one_time']);
    expect(r.headers['cache-control']).toContain('max-age');
    const again = await stack.app.inject({ url: '/api/Lookups', headers: { ...who, 'if-none-match': String(r.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});
