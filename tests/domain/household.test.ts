import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AddressInput, AssetInput, AssetsMultipleInput, IncomeInput, MEMBER_MESSAGES, MemberInput, QuestionAnswer, ReviewReasonInput, UploadFields,
  ZeroIncomeDeclarationInput, fileCountProblem, fileKindOf, householdIncomeProblem, documentStatusOf, uploadDateOf, ageOn,
  isValidSsn, isValidItin, isValidAlienNumber, ManagerReviewInput, RentalAssistanceInput, employerNameDiffers,
} from '../../domain';

/** Section 5 rules: each with a passing and a failing case, checked on the messages users see. */
const messages = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};
const adult = {
  fullName: 'Amina Rahman', relationship: 'self', dateOfBirth: '1980-04-02', gender: 'female', ssn: '123-45-6789', races: ['asian'],
  ethnicity: 'not_hispanic_or_latino', maritalStatus: 'single', studentStatus: 'not_a_student', studentEligibility: 'not_applicable',
  headOfHousehold: true, email: 'amina@example.org', mobile: '212-555-0142',
};
const yearsAgo = (n: number) => `${new Date().getUTCFullYear() - n}-01-01`;
const uuid = '8f1d3c52-4a43-4b8e-9d4c-3c0b6a3c9f11';

describe('household member (spec section 5)', () => {
  it('accepts a complete adult applicant', () => expect(messages(MemberInput, adult)).toEqual([]));
  it('requires full name, gender, marital status, relationship, race, ethnicity, student fields and date of birth', () => {
    const m = messages(MemberInput, { ssn: '123456789' });
    expect(m.filter((x) => x === 'Required').length).toBeGreaterThanOrEqual(8);
    expect(messages(MemberInput, { ...adult, races: [] })).toEqual([MEMBER_MESSAGES.raceRequired]);
  });
  it('checks SSN, ITIN and alien registration number formats', () => {
    expect(isValidSsn('123-45-6789')).toBe(true);
    expect(isValidSsn('000-12-3456')).toBe(false);
    expect(isValidItin('912-70-1234')).toBe(true);
    expect(isValidItin('123-70-1234')).toBe(false);
    expect(isValidAlienNumber('A12345678')).toBe(true);
    expect(isValidAlienNumber('A123')).toBe(false);
    expect(messages(MemberInput, { ...adult, ssn: '666-12-1234' })).toEqual([MEMBER_MESSAGES.ssnFormat]);
    expect(messages(MemberInput, { ...adult, ssn: null, itin: '912-40-1234' })).toEqual([MEMBER_MESSAGES.itinFormat]);
    expect(messages(MemberInput, { ...adult, ssn: null, alienRegistrationNumber: 'B1234' })).toEqual([MEMBER_MESSAGES.alienFormat]);
    expect(messages(MemberInput, { ...adult, ssn: null, alienRegistrationNumber: 'A123456789' })).toEqual([]);
  });
  it('requires at least one of SSN, ITIN or alien number (or one on file)', () => {
    expect(messages(MemberInput, { ...adult, ssn: '' })).toEqual([MEMBER_MESSAGES.identifierRequired]);
    expect(messages(MemberInput, { ...adult, ssn: '', identifierOnFile: true })).toEqual([]);
  });
  it('requires the applicant to be at least 18', () => {
    expect(ageOn('2008-06-15', '2026-06-14')).toBe(17);
    expect(ageOn('2008-06-15', '2026-06-15')).toBe(18);
    expect(messages(MemberInput, { ...adult, dateOfBirth: yearsAgo(17), headOfHousehold: false })).toEqual([MEMBER_MESSAGES.applicantAge]);
    expect(messages(MemberInput, { ...adult, dateOfBirth: yearsAgo(19) })).toEqual([]);
  });
  it('refuses a non-emancipated minor as head of household', () => {
    const minor = { ...adult, relationship: 'child', email: null, dateOfBirth: yearsAgo(16) };
    expect(messages(MemberInput, minor)).toEqual([MEMBER_MESSAGES.headMinor]);
    expect(messages(MemberInput, { ...minor, emancipatedMinor: true })).toEqual([]);
    expect(messages(MemberInput, { ...minor, headOfHousehold: false })).toEqual([]);
  });
  it('requires the applicant email and a phone of at least 10 digits', () => {
    expect(messages(MemberInput, { ...adult, email: '' })).toEqual(['Required']);
    expect(messages(MemberInput, { ...adult, mobile: '555-0142' })).toEqual([MEMBER_MESSAGES.phone]);
  });
  it('requires child count and due date when pregnant', () => {
    expect(messages(MemberInput, { ...adult, pregnant: true })).toEqual(['Required', 'Required']);
    expect(messages(MemberInput, { ...adult, pregnant: true, pregnancyChildCount: '1', expectedDeliveryDate: '2027-01-10' })).toEqual([]);
  });
  it('rejects impossible dates', () => {
    expect(messages(MemberInput, { ...adult, dateOfBirth: '1980-02-30' })).toContain('Enter a valid date');
  });
});

describe('income (spec sections 3 and 5)', () => {
  const job = { incomeType: 'employment', memberId: uuid, employerName: 'Acme', startDate: '2024-01-01', amount: '1,250.50', frequency: 'bi_weekly' };
  it('accepts an employment entry and reads numbers typed with commas', () => {
    const r = IncomeInput.parse(job);
    expect(r.amount).toBe(1250.5);
  });
  it('requires numeric amounts and the type-specific fields', () => {
    expect(messages(IncomeInput, { ...job, amount: 'abc' })).toEqual(['Must be a number']);
    expect(messages(IncomeInput, { ...job, employerName: '' })).toEqual(['Required']);
    expect(messages(IncomeInput, { ...job, incomeType: 'gig_economy' })).toEqual(['Required', 'Required']);
    expect(messages(IncomeInput, { ...job, incomeType: 'lottery' })).toEqual(['Select an income type']);
  });
  it('asks for a reason when child support received differs from the agreement', () => {
    const support = { ...job, incomeType: 'alimony_child_support', agreementType: 'court_order', expectedAmount: 400, expectedFrequency: 'monthly', actualAmount: 200, actualFrequency: 'monthly' };
    expect(messages(IncomeInput, support)).toEqual(['Please provide a reason.']);
    expect(messages(IncomeInput, { ...support, discrepancyReason: 'Paid half since March' })).toEqual([]);
  });
  it('prompts to update the saved employer name only when the pay stub names another employer', () => {
    expect(employerNameDiffers('Bronx Bakery', 'BRONX BAKERY.')).toBe(false);
    expect(employerNameDiffers('Bronx Bakery', '')).toBe(false);
    expect(employerNameDiffers('Bronx Bakery', 'Bronx Bakery & Cafe LLC')).toBe(true);
  });
  it('requires an explanation for zero income', () => {
    expect(messages(ZeroIncomeDeclarationInput, { memberId: uuid, duration: '3_to_6_months', reasons: '', expenses: 'Family helps' })).toEqual([
      'Explanation required for zero income',
    ]);
    expect(messages(IncomeInput, { incomeType: 'zero_income', memberId: uuid, frequency: 'monthly', duration: '3_to_6_months', reasons: 'Lost job', expenses: 'Savings' })).toEqual([]);
  });
  it('needs one member with valid income and not everyone at zero income', () => {
    const a = uuid, b = '2b0c1e1c-5f6a-4f2e-8a43-8b7b6e4b1d22';
    expect(householdIncomeProblem([a, b], [])).toBe('At least one household member must report valid income');
    expect(householdIncomeProblem([a, b], [{ memberId: a, incomeType: 'zero_income', amount: 0 }, { memberId: b, incomeType: 'zero_income', amount: 0 }])).toBe(
      'All members cannot declare zero income',
    );
    expect(householdIncomeProblem([a, b], [{ memberId: a, incomeType: 'employment', amount: 900 }, { memberId: b, incomeType: 'zero_income', amount: 0 }])).toBeNull();
    expect(householdIncomeProblem([a], [{ memberId: a, incomeType: 'zero_income', amount: 0 }, { memberId: a, incomeType: 'alimony_child_support', amount: 300 }])).toBeNull();
  });
});

describe('assets (spec section 5: bank account rules)', () => {
  const bank = { kind: 'BankAccounts', accountType: 'checking', institution: 'Chase', last4: '4321', balance: '1200', annualIncome: 3 };
  it('accepts a valid bank account', () => expect(messages(AssetInput, bank)).toEqual([]));
  it('requires numeric last 4 digits, numeric balance and income, and the institution', () => {
    expect(messages(AssetInput, { ...bank, last4: '12a4' })).toEqual(['Enter the last 4 digits (numbers only)']);
    expect(messages(AssetInput, { ...bank, last4: '' })).toEqual(['Required']);
    expect(messages(AssetInput, { ...bank, balance: 'lots', annualIncome: 'x' })).toEqual(['Must be a number', 'Must be a number']);
    expect(messages(AssetInput, { ...bank, institution: ' ' })).toEqual(['Financial institution is required']);
  });
  it('needs at least one entry when saving several', () => {
    expect(messages(AssetsMultipleInput, [])).toEqual(['At least one entry is required']);
  });
  it('checks EBT card last 4 digits', () => {
    expect(messages(AssetInput, { kind: 'EBTCards', cardType: 'ebt', last4: '99' })).toEqual(['Enter the last 4 digits (numbers only)']);
  });
});

describe('address (spec section 5)', () => {
  const home = { line1: '410 Riverside Dr', city: 'New York', state: 'NY', zip: '10025' };
  it('requires line 1, and mailing line 1 when mailing differs', () => {
    expect(messages(AddressInput, home)).toEqual([]);
    expect(messages(AddressInput, { ...home, line1: '' })).toEqual(['Required']);
    expect(messages(AddressInput, { ...home, mailingSameAsLiving: false, mailingCity: 'Bronx', mailingState: 'NY', mailingZip: '10462' })).toEqual([
      'Mailing address line 1 is required',
    ]);
  });
});

describe('questions, rental assistance and documents', () => {
  it('requires an answer', () => {
    expect(messages(QuestionAnswer, {})).toEqual(['Answer required']);
    expect(messages(QuestionAnswer, { answer: false, confirmed: true })).toEqual([]);
  });
  it('requires type, agency and amount for rental assistance', () => {
    expect(messages(RentalAssistanceInput, { hasAssistance: true })).toEqual(['Required', 'Required', 'Required']);
    expect(messages(RentalAssistanceInput, { hasAssistance: false })).toEqual([]);
  });
  it('limits files: 6 bank statements, 1 retirement statement, the last 6 pay stubs', () => {
    expect(fileCountProblem('bank_statement', 5, 1)).toBeNull();
    expect(fileCountProblem('bank_statement', 5, 2)).toBe('Bank statements: up to 6 files');
    expect(fileCountProblem('retirement_statement', 0, 1)).toBeNull();
    expect(fileCountProblem('retirement_statement', 1, 1)).toBe('Retirement statement: 1 file');
    expect(fileCountProblem('pay_stub', 0, 7)).toBe('Pay stubs: upload the last 6 consecutive');
    expect(fileCountProblem('other', 0, 0)).toBe('File is required');
  });
  it('asks for a reason on re-upload, review reasons and manager rejections', () => {
    expect(messages(UploadFields, { documentType: 'pay_stub', replacesDocumentId: uuid })).toEqual(['Please provide a reason.']);
    expect(messages(UploadFields, { documentType: 'pay_stub', replacesDocumentId: uuid, reason: 'Clearer scan' })).toEqual([]);
    expect(messages(UploadFields, {})).toEqual(['Document type is required']);
    expect(messages(ReviewReasonInput, { documentId: uuid, reason: '  ' })).toEqual(['Please provide a reason.']);
    expect(messages(ManagerReviewInput, { documentId: uuid, rejected: true })).toEqual(['Please provide a reason.']);
  });
  it('maps documents as section 3 says: type from extension (default PDF), year 0000 empty, status', () => {
    expect(fileKindOf('stub.png')).toBe('PNG');
    expect(fileKindOf('statement')).toBe('PDF');
    expect(fileKindOf('weird.xyz')).toBe('PDF');
    expect(uploadDateOf('0000-01-01T00:00:00')).toBeNull();
    expect(uploadDateOf('2026-11-02T10:00:00Z')).toBe('2026-11-02T10:00:00Z');
    expect(documentStatusOf('households/x/documents/y')).toBe('Uploaded');
    expect(documentStatusOf(null)).toBe('Pending');
  });
});
