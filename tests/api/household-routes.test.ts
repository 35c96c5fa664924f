import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_KINDS } from '../../domain';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Every route of the household groups of spec section 7 (`:id` is filled in). */
const ROUTES: [Method, string][] = [
  ['POST', '/api/Household/CreateApplicantOrMember'], ['PUT', '/api/Household/UpdateApplicantOrMember'], ['GET', '/api/Household/profile'],
  ['POST', '/api/Household/profile'], ['DELETE', '/api/Household/member/:id'], ['POST', '/api/Household/CompleteProfile'],
  ['POST', '/api/Household/FinalProfileSubmission'], ['POST', '/api/Household/addOrUpdateEligibilityAssessment'],
  ['POST', '/api/Household/updateIncomeQuestionId/:id'], ['GET', '/api/Household/get-user-summary/:id'],
  ['POST', '/api/Household/updateLeaseUpHouseholdSizeAndIncome/:id'], ['POST', '/api/Household/addOrUpdateApplicantAddress'],
  ['POST', '/api/Household/income-tax-refund'], ['GET', '/api/Household/getAllDocuments'],
  ['POST', '/api/HouseholdIncome/create'], ['POST', '/api/HouseholdIncome/CreateOrUpdateIncome'], ['POST', '/api/HouseholdIncome/CreateOrUpdateGigEconomy'],
  ['POST', '/api/HouseholdIncome/CreateOrUpdateZeroIncome'], ['DELETE', '/api/HouseholdIncome/:id'], ['GET', '/api/HouseholdIncome/GetIncomeTypes'], ['GET', '/api/HouseholdIncome'],
  ...ASSET_KINDS.flatMap((k): [Method, string][] => [['POST', `/api/HouseholdAssets/${k}`], ['DELETE', `/api/HouseholdAssets/${k}/:id`]]),
  ['POST', '/api/HouseholdAssets/SaveAssetsMultiple'], ['POST', '/api/HouseholdAssets/SaveBankAccounts'], ['POST', '/api/HouseholdAssets/SaveRetirementAccounts'],
  ['PUT', '/api/HouseholdAssets/UpdateAssetFlag'], ['PUT', '/api/HouseholdAssets/UpdateTrustAssetFlag'], ['PUT', '/api/HouseholdAssets/UpdateLifeInsuranceAssetFlag'],
  ['PUT', '/api/HouseholdAssets/UpdateEBTCardAssetFlag'], ['GET', '/api/HouseholdAssets'],
  ['POST', '/api/SpecialIncome/IncomeChangeForecast'], ['POST', '/api/SpecialIncome/ConfirmSelfEmployment'], ['POST', '/api/SpecialIncome/ZeroIncomeDeclaration'],
  ['POST', '/api/SpecialIncome/ChildSupportAlimony'], ['POST', '/api/SpecialIncome/LumpSumPayment'],
  ['GET', '/api/HousingChoices/Applicant'], ['POST', '/api/HousingChoices/rental-assistance'], ['PUT', '/api/HousingChoices/rental-assistance'],
  ['POST', '/api/HousingChoices/AdditionalPreferences'], ['PUT', '/api/HousingChoices/AdditionalPreferences'], ['GET', '/api/Lookups'],
  ['POST', '/api/Document/UploadDocument'], ['POST', '/api/Document/BulkUpload'], ['POST', '/api/Document/UploadFilesToBlob'], ['GET', '/api/Document/GetDocument/:id'],
  ['GET', '/api/Document/Preview/:id'], ['DELETE', '/api/Document/DeleteDocument/:id'], ['DELETE', '/api/Document/DeleteFileByUrlAsync'],
  ['PUT', '/api/Document/DocumentReviewReason'], ['PUT', '/api/Document/ManagerReview'], ['GET', '/api/Document/GetRequiredDocs'],
  ['GET', '/api/Document/GetIncomeTypeDocuments'], ['GET', '/api/Document'],
];

/** Malformed input of every kind: wrong types, missing fields, arrays, broken JSON, bad ids and queries. */
const BODIES: (string | object | undefined)[] = [undefined, {}, [], { memberId: 12, amount: { x: 1 }, kind: null, id: 'nope' }, '{"broken":', 'plain text', { incomeType: 'employment', amount: -5 }];

describe('household route groups answer malformed input with a 4xx in the envelope, never a 5xx', () => {
  let stack: Stack;
  const who: Record<string, { authorization: string }> = {};
  beforeAll(async () => {
    stack = await startStack();
    for (const role of ['User', 'Manager', 'HousingAmbassador'] as const) who[role] = await signIn(stack.app, role);
  });
  afterAll(() => stack?.close());

  it('refuses every route without a session (401)', async () => {
    for (const [method, url] of ROUTES) {
      const r = await stack.app.inject({ method, url: url.replace(':id', randomUUID()) });
      expect(r.statusCode, `${method} ${url}`).toBe(401);
      expect(r.json()).toMatchObject({ status: 401, data: { code: 'unauthorized' } });
    }
  });

  it('never fails with a 5xx, whoever calls and whatever is sent', async () => {
    const failures: string[] = [];
    for (const role of Object.keys(who)) {
      for (const [method, path] of ROUTES) {
        for (const id of ['not-a-uuid', randomUUID()]) {
          for (const query of ['', '?householdId=zzz&search=%00&incomeType=1&fileUrl=']) {
            for (const body of method === 'GET' ? [undefined] : BODIES) {
              const url = `${path.replace(':id', id)}${query}`;
              const r = await stack.app.inject({
                method, url,
                headers: { ...who[role], ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}) },
                ...(body === undefined ? {} : { payload: body as string }),
              });
              const envelope = r.statusCode === 304 ? null : r.json();
              if (r.statusCode >= 500 || (envelope && envelope.status !== r.statusCode)) failures.push(`${role} ${method} ${url} ${JSON.stringify(body)} -> ${r.statusCode} ${r.body.slice(0, 200)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
