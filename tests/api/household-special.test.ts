import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { adultMember, multipart, newResident, tinyPdf } from '../helpers/household';

/** The smaller household calls (special income, housing choices, summary, eligibility) and ids of another household. */
describe('household special income, housing choices and other households’ ids', () => {
  let stack: Stack;
  let a: Awaited<ReturnType<typeof newResident>>;
  let b: Awaited<ReturnType<typeof newResident>>;
  let aMember: string;
  let aHousehold: string;
  type H = { authorization: string };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: H, payload?: object) =>
    stack.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    stack = await startStack({ seed: false });
    a = await newResident(stack.app, stack.db);
    b = await newResident(stack.app, stack.db);
    aHousehold = (await call('POST', '/api/Household/profile', a.headers)).json().data.householdId;
    aMember = (await call('POST', '/api/Household/CreateApplicantOrMember', a.headers, adultMember())).json().data.id;
    await call('POST', '/api/Household/profile', b.headers);
  });
  afterAll(() => stack?.close());

  it('keeps special-income answers; zero income and child support become income entries', async () => {
    const forecast = await call('POST', '/api/SpecialIncome/IncomeChangeForecast', a.headers, { memberId: aMember, expectsChange: true, expectedAmount: 900, frequency: 'monthly', effectiveDate: '2027-02-01' });
    expect(forecast.json().message).toBe('Please provide a reason.');
    expect((await call('POST', '/api/SpecialIncome/IncomeChangeForecast', a.headers, { memberId: aMember, expectsChange: true, expectedAmount: 900, frequency: 'monthly', effectiveDate: '2027-02-01', reason: 'New job' })).statusCode).toBe(200);
    expect((await call('POST', '/api/SpecialIncome/ConfirmSelfEmployment', a.headers, { memberId: aMember, isSelfEmployed: false })).statusCode).toBe(200);
    expect((await call('POST', '/api/SpecialIncome/LumpSumPayment', a.headers, { memberId: aMember, amount: 500, receivedDate: '2026-10-01', source: 'Settlement' })).statusCode).toBe(200);
    // Section 5 messages: a zero-income declaration without its explanation, a question left unanswered, a missing tax year.
    expect((await call('POST', '/api/SpecialIncome/ZeroIncomeDeclaration', a.headers, { memberId: aMember, duration: '3_to_6_months', reasons: '  ', expenses: 'Savings' })).json().message).toBe('Explanation required for zero income');
    expect((await call('POST', '/api/HouseholdIncome/CreateOrUpdateIncome', a.headers, { memberId: aMember, incomeType: 'zero_income', frequency: 'monthly', duration: '3_to_6_months', expenses: 'Savings' })).json().message).toBe('Explanation required for zero income');
    expect((await call('POST', '/api/SpecialIncome/ConfirmSelfEmployment', a.headers, { memberId: aMember })).json().message).toBe('Answer required');
    expect((await call('POST', '/api/Household/income-tax-refund', a.headers, { memberId: aMember, amount: 812 })).json().message).toBe('Required');
    expect((await call('POST', '/api/Household/income-tax-refund', a.headers, { memberId: aMember, amount: 812, taxYear: 1850 })).json().message).toBe('Enter a tax year such as 2025');
    const zero = await call('POST', '/api/SpecialIncome/ZeroIncomeDeclaration', a.headers, { memberId: aMember, duration: '3_to_6_months', reasons: 'Laid off', expenses: 'Savings' });
    expect(zero.json().data).toMatchObject({ incomeType: 'zero_income', amount: 0, annualAmount: 0 });
    // Everyone at zero income: the household income section is not complete.
    expect((await call('GET', '/api/Household/profile', a.headers)).json().data.completion.missing).toContain('allZeroIncome');
    const support = await call('POST', '/api/SpecialIncome/ChildSupportAlimony', a.headers, {
      incomeType: 'alimony_child_support', memberId: aMember, amount: 300, frequency: 'monthly', agreementType: 'court_order',
      expectedAmount: 300, expectedFrequency: 'monthly', actualAmount: 300, actualFrequency: 'monthly',
    });
    expect(support.statusCode).toBe(200);
    expect((await call('GET', '/api/Household/profile', a.headers)).json().data.completion.missing).not.toContain('allZeroIncome');
    expect((await call('POST', '/api/Household/income-tax-refund', a.headers, { memberId: aMember, amount: 812, taxYear: 2025 })).statusCode).toBe(200);
    // Another household's member id is not found.
    expect((await call('POST', '/api/SpecialIncome/LumpSumPayment', b.headers, { memberId: aMember, amount: 5, receivedDate: '2026-10-01', source: 'x' })).statusCode).toBe(404);
  });

  it('keeps one applicant and one head of household per household', async () => {
    const second = await call('POST', '/api/Household/CreateApplicantOrMember', a.headers, adultMember({ fullName: 'Another Self', headOfHousehold: false }));
    expect(second.json()).toMatchObject({ status: 422, message: 'The household already has an applicant (relationship Self)' });
    const head = await call('POST', '/api/Household/CreateApplicantOrMember', a.headers, adultMember({ fullName: 'Second Head', relationship: 'brother', email: null }));
    expect(head.json()).toMatchObject({ status: 422, message: 'The household already has a head of household' });
  });

  it('saves housing choices and rental assistance, and reads them back', async () => {
    expect((await call('POST', '/api/HousingChoices/rental-assistance', a.headers, { hasAssistance: true, type: 'section8_voucher' })).json().message).toBe('Required');
    const saved = await call('POST', '/api/HousingChoices/rental-assistance', a.headers, { hasAssistance: true, type: 'section8_voucher', agency: 'NYCHA', active: true, amount: '1,100', tenantShare: 400 });
    expect(saved.json().data).toMatchObject({ agency: 'NYCHA', amount: 1100 });
    await call('PUT', '/api/HousingChoices/AdditionalPreferences', a.headers, { interests: { mitchellLama: true }, unitSize: 'studio', pet: true });
    const read = (await call('GET', '/api/HousingChoices/Applicant', a.headers)).json().data;
    expect(read.preferences).toMatchObject({ unitSize: 'studio', pet: true, interests: { mitchellLama: true, section8: false } });
    expect(read.rentalAssistance).toEqual([expect.objectContaining({ id: saved.json().data.id, tenantShare: 400 })]);
    expect((await call('PUT', '/api/HousingChoices/rental-assistance', b.headers, { id: saved.json().data.id, hasAssistance: false })).statusCode).toBe(404);
  });

  it('answers the summary, eligibility and lease-up size and income for the own household only', async () => {
    expect((await call('POST', '/api/Household/addOrUpdateEligibilityAssessment', a.headers, { householdSize: 2, totalIncome: '41,000' })).json().data).toMatchObject({ totalIncome: 41000 });
    expect((await call('POST', `/api/Household/updateLeaseUpHouseholdSizeAndIncome/${aHousehold}`, a.headers, { householdSize: 3, householdIncome: 45000 })).json().data).toMatchObject({ householdSize: 3, totalIncome: 45000 });
    expect((await call('POST', `/api/Household/updateLeaseUpHouseholdSizeAndIncome/${aHousehold}`, b.headers, { householdSize: 3, householdIncome: 1 })).statusCode).toBe(404);
    const summary = await call('GET', `/api/Household/get-user-summary/${aHousehold}`, a.headers);
    expect(summary.json().data).toMatchObject({ householdId: aHousehold, householdSize: 1, headOfHousehold: 'Rosa Diaz' });
    expect((await call('POST', `/api/Household/updateIncomeQuestionId/${aHousehold}`, b.headers, { answer: true })).statusCode).toBe(404);
  });

  it('refuses to touch another household’s members, income, assets and documents', async () => {
    const income = (await call('POST', '/api/HouseholdIncome/create', a.headers, { incomeType: 'pension', memberId: aMember, amount: 700, frequency: 'monthly' })).json().data;
    const asset = (await call('POST', '/api/HouseholdAssets/OtherAssets', a.headers, { kind: 'OtherAssets', description: 'Car', value: 3000 })).json().data;
    const m = multipart({ documentType: 'award_letter', incomeId: income.id }, [{ name: 'award.pdf', body: tinyPdf() }]);
    const doc = (await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, ...a.headers } })).json().data[0];

    const { id: _id, ssnLast4: _s, itinLast4: _i, alienRegistrationNumberLast4: _a, age: _g, ...fields } = (await call('GET', '/api/Household/profile', a.headers)).json().data.members[0];
    expect((await call('PUT', '/api/Household/UpdateApplicantOrMember', b.headers, { ...fields, id: aMember })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/Household/member/${aMember}`, b.headers)).statusCode).toBe(404);
    expect((await call('POST', '/api/HouseholdIncome/CreateOrUpdateIncome', b.headers, { incomeType: 'pension', memberId: aMember, amount: 1, frequency: 'monthly' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/HouseholdIncome/${income.id}`, b.headers)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/HouseholdAssets/OtherAssets/${asset.id}`, b.headers)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/Document/DeleteDocument/${doc.id}`, b.headers)).statusCode).toBe(404);
    expect((await call('PUT', '/api/Document/DocumentReviewReason', b.headers, { documentId: doc.id, reason: 'mine' })).statusCode).toBe(404);
    const m2 = multipart({ documentType: 'other', incomeId: income.id }, [{ name: 'x.pdf', body: tinyPdf() }]);
    expect((await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m2.payload, headers: { ...m2.headers, ...b.headers } })).statusCode).toBe(404);
    // Nothing of household A changed.
    expect((await call('GET', '/api/HouseholdIncome', a.headers)).json().data.map((i: { id: string }) => i.id)).toContain(income.id);
    expect((await call('GET', '/api/Document', a.headers)).json().data.items.map((d: { id: string }) => d.id)).toContain(doc.id);
    expect((await call('DELETE', `/api/Household/member/${aMember}`, a.headers)).statusCode).toBe(200);
    // Deleting the member deletes their income; their document stays, unlinked.
    expect((await call('GET', '/api/HouseholdIncome', a.headers)).json().data).toEqual([]);
  });
});
