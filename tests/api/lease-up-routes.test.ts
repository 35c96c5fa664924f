import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { SIGNATURE_PNG_BASE64, makeUser, otherOrganizationManager } from '../helpers/lease-up-users';

type Headers = { authorization: string };

/**
 * Every section-7 route of the Opportunity, FavoriteOpportunity and LeaseUpApplication groups on the
 * real stack: an application taken through offer and lease signing, an appeal, and the guards
 * (signed out, wrong role, another household, a manager of another organisation, impersonation).
 */
describe.sequential('lease-up and opportunity routes', () => {
  let stack: Stack;
  let applicant: Headers & { userId: string };
  let manager: Headers & { userId: string };
  let stranger: Headers & { userId: string };
  let otherManager: Headers & { userId: string };
  let opportunityId: string;
  let unitIds: string[];

  beforeAll(async () => {
    stack = await startStack();
    applicant = await signIn(stack.app, 'User');
    manager = await signIn(stack.app, 'Manager');
    stranger = await makeUser(stack, { role: 'User' });
    otherManager = await otherOrganizationManager(stack);
  });
  afterAll(() => stack?.close());

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers?: Headers, payload?: object) =>
    stack.app.inject({ method, url, ...(headers ? { headers: { authorization: headers.authorization } } : {}), ...(payload ? { payload } : {}) });
  const act = (id: string, action: string, payload?: object, who: Headers = manager) =>
    inject('POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${id}/${action}`, who, payload);

  it('managers of the owning organisation create and publish opportunities; others may not', async () => {
    const input = {
      name: 'Mott Haven Terrace',
      kind: 'rental',
      building: 'Building A',
      address: '300 E 140th St, Bronx, NY 10454',
      amenities: ['Elevator', 'Roof garden'],
      lotteryEndDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      units: [
        { unitNumber: '1A', bedroomType: 'Studio', monthlyRent: 1100, amiPercent: 50, accessibility: ['Mobility'] },
        { unitNumber: '1B', bedroomType: '1 bedroom', monthlyRent: 1300, amiPercent: 60 },
      ],
      requirements: [{ amiPercent: 50, layout: 'Studio', monthlyRent: 1100 }],
      incomeRanges: [{ householdSize: 2, min: 40_000, max: 90_000 }],
      settings: { offerExpiryDays: 3 },
    };
    expect((await inject('POST', '/api/Opportunity/manage', applicant, input)).statusCode).toBe(403);
    expect((await inject('POST', '/api/Opportunity/manage', manager, { ...input, incomeRanges: [{ householdSize: 2, min: 9, max: 1 }] })).statusCode).toBe(400);
    const created = await inject('POST', '/api/Opportunity/manage', manager, input);
    expect(created.statusCode).toBe(201);
    const opportunity = created.json().data;
    expect(opportunity).toMatchObject({ published: false, unitCount: 2, settings: { offerExpiryDays: 3, appealWindowDays: 14 } });
    opportunityId = opportunity.id;
    unitIds = opportunity.units.map((u: { id: string }) => u.id);

    // Not public before publishing; another organisation's manager can neither see nor publish it.
    expect((await inject('GET', `/api/Opportunity/${opportunityId}`)).statusCode).toBe(404);
    expect((await inject('POST', `/api/Opportunity/manage/${opportunityId}/publish`, otherManager)).statusCode).toBe(403);
    expect((await inject('GET', `/api/Opportunity/manage/${opportunityId}`, otherManager)).statusCode).toBe(403);
    expect((await inject('PUT', `/api/Opportunity/manage/${opportunityId}`, otherManager, input)).statusCode).toBe(403);

    const pdf = Buffer.from('%PDF-1.4\n% paper application\n').toString('base64');
    expect((await inject('PUT', `/api/Opportunity/manage/${opportunityId}/paper-application`, manager, { fileBase64: Buffer.from('not a pdf').toString('base64') })).statusCode).toBe(400);
    expect((await inject('PUT', `/api/Opportunity/manage/${opportunityId}/paper-application`, manager, { fileBase64: pdf })).json().data.hasPaperApplication).toBe(true);
    expect((await inject('GET', `/api/Opportunity/${opportunityId}/paper-application`)).statusCode).toBe(404);

    const published = await inject('POST', `/api/Opportunity/manage/${opportunityId}/publish`, manager);
    expect(published.json().data.published).toBe(true);
    const detail = await inject('GET', `/api/Opportunity/${opportunityId}`);
    expect(detail.json().data).toMatchObject({ name: 'Mott Haven Terrace', building: 'Building A', hasPaperApplication: true, daysRemaining: 30 });
    const paper = await inject('GET', `/api/Opportunity/${opportunityId}/paper-application`);
    expect(paper.headers['content-type']).toBe('application/pdf');
    expect(paper.body.startsWith('%PDF-')).toBe(true);
    expect((await inject('GET', '/api/Opportunity/manage/list', manager)).json().data.map((o: { id: string }) => o.id)).toContain(opportunityId);
  });

  it('favourites: add, update, list mine; filtered list marks them; another user\'s list is refused', async () => {
    expect((await inject('POST', '/api/FavoriteOpportunity', undefined, { opportunityId })).statusCode).toBe(401);
    expect((await inject('POST', '/api/FavoriteOpportunity', applicant, { opportunityId })).json().data).toEqual({ opportunityId, isFavorite: true });
    let mine = await inject('GET', '/api/FavoriteOpportunity/my-favorites', applicant);
    expect(mine.json().data.map((o: { id: string }) => o.id)).toEqual([opportunityId]);
    expect((await inject('GET', `/api/FavoriteOpportunity/${applicant.userId}`, applicant)).json().data).toHaveLength(1);
    expect((await inject('GET', `/api/FavoriteOpportunity/${applicant.userId}`, stranger)).statusCode).toBe(403);

    const filtered = await inject('GET', '/api/Opportunity/filtered-opportunities?type=rental&sort=daysRemainingDesc', applicant);
    const list = filtered.json().data as { id: string; kind: string; isFavorite: boolean; daysRemaining: number }[];
    expect(list.every((o) => o.kind === 'rental')).toBe(true);
    expect(list.find((o) => o.id === opportunityId)?.isFavorite).toBe(true);
    expect(list.map((o) => o.daysRemaining)).toEqual([...list.map((o) => o.daysRemaining)].sort((a, b) => b - a));
    const onlyFavorites = await inject('GET', '/api/Opportunity/filtered-opportunities?favoritesOnly=true', applicant);
    expect(onlyFavorites.json().data.map((o: { id: string }) => o.id)).toEqual([opportunityId]);
    const none = await inject('GET', '/api/Opportunity/filtered-opportunities?search=no-such-place');
    expect(none.json()).toMatchObject({ message: 'No opportunities found for search criteria', data: [] });

    await inject('PUT', '/api/FavoriteOpportunity', applicant, { opportunityId, isFavorite: false });
    mine = await inject('GET', '/api/FavoriteOpportunity/my-favorites', applicant);
    expect(mine.json().data).toEqual([]);
  });

  it('takes an application through offer and lease signing by the section-7 routes, with every guard', async () => {
    const applied = await inject('POST', '/api/LeaseUpApplication/apply', applicant, { opportunityId, householdSize: 2, householdIncome: 52_000, agreeToTerms: true });
    expect(applied.statusCode).toBe(201);
    const id = applied.json().data.applicationId;
    const again = await inject('POST', '/api/LeaseUpApplication/apply', applicant, { opportunityId, householdSize: 2, householdIncome: 52_000, agreeToTerms: true });
    expect(again.json()).toMatchObject({ status: 409, message: 'Already applied' });

    const status = await inject('GET', `/api/LeaseUpApplication/check-application-status/${opportunityId}/${applicant.userId}`, applicant);
    expect(status.json().data).toMatchObject({ applied: true, applicationId: id, status: 'in_review' });
    expect((await inject('GET', `/api/LeaseUpApplication/check-application-status/${opportunityId}/${applicant.userId}`, stranger)).statusCode).toBe(403);
    expect((await inject('GET', `/api/LeaseUpApplication/check-application-status/${opportunityId}/${applicant.userId}`, otherManager)).statusCode).toBe(403);

    // A manager of another organisation and another applicant see and do nothing.
    expect((await inject('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, otherManager)).statusCode).toBe(403);
    expect((await act(id, 'RequestConsentForScreening', undefined, otherManager)).statusCode).toBe(403);
    expect((await inject('GET', `/api/LeaseUpApplication/timeline/${id}`, stranger)).statusCode).toBe(403);
    expect((await inject('GET', '/api/LeaseUpApplication/getApplications', otherManager)).json().data).toEqual({ items: [], nextCursor: null });

    await inject('POST', `/api/Household/submit-applicant-profile/${id}`, applicant);
    expect((await act(id, 'MarkAsComplete')).json().data.currentStep).toBe('decision');
    // Income-range fit is shown to the manager (spec section 1: shown, never acted on), not to the applicant.
    expect((await inject('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, manager)).json().data.incomeFit).toBe('within');
    expect((await inject('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, applicant)).json().data.incomeFit).toBeUndefined();

    const slots = [2, 3].map((d) => new Date(Date.now() + d * 86_400_000).toISOString());
    expect((await act(id, 'ProceedToAppointmentScheduling', { slots })).json().data.currentStep).toBe('appointment_scheduling');
    const available = await inject('GET', `/api/LeaseUpApplication/getAvailableAppointmentSlots?applicationId=${id}`, applicant);
    expect(available.json().data.slots).toEqual(slots);
    expect((await inject('GET', `/api/LeaseUpApplication/getAvailableAppointmentSlots?applicationId=${id}`, stranger)).statusCode).toBe(403);
    const bad = await inject('POST', '/api/LeaseUpApplication/schedule-appointment', applicant, { applicationId: id, slot: new Date(Date.now() + 9 * 86_400_000).toISOString() });
    expect(bad.json()).toMatchObject({ status: 409, data: { code: 'slotUnavailable' } });
    expect((await inject('POST', '/api/LeaseUpApplication/schedule-appointment', applicant, { applicationId: id, slot: slots[0] })).json().data.currentStep).toBe('screening');
    expect((await inject('POST', '/api/LeaseUpApplication/schedule-appointment', applicant, { applicationId: id, slot: slots[1] })).json().data.appointmentAt).toBe(slots[1]);

    // Offers: only units of this opportunity; two offered, accepting one hides the other from the applicant.
    const foreignUnit = await stack.db.selectFrom('units').select('id').where('opportunity_id', '!=', opportunityId).executeTakeFirstOrThrow();
    expect((await act(id, 'OfferUnit', { unitIds: [foreignUnit.id] })).json().data.code).toBe('unitUnavailable');
    const offered = (await act(id, 'OfferUnit', { unitIds })).json().data;
    expect(offered.offers).toHaveLength(2);
    expect((await inject('POST', '/api/LeaseUpApplication/unit-offer/respond', stranger, { applicationId: id, offerId: 'offer-1', accept: true })).statusCode).toBe(403);
    const accepted = await inject('POST', '/api/LeaseUpApplication/unit-offer/respond', applicant, { applicationId: id, offerId: 'offer-1', accept: true });
    expect(accepted.json().data.offers.map((o: { status: string }) => o.status)).toEqual(['accepted']);
    expect((await inject('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, manager)).json().data.offers).toHaveLength(2);
    await act(id, 'ProceedWithUnitOffer');

    // TIC: not before it is generated, never while impersonating, and only with a signature image.
    const early = await inject('PUT', `/api/Document/applytenantsignaturetotic/${id}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64 });
    expect(early.json()).toMatchObject({ status: 409, message: 'TIC not generated yet' });
    await act(id, 'GenerateIncomeCertification');
    const impersonating = { authorization: `Bearer ${stack.app.signAccessToken({ sub: applicant.userId, role: 'User', realUserId: manager.userId } as never).token}` };
    const refused = await inject('PUT', `/api/Document/applytenantsignaturetotic/${id}`, impersonating, { signatureBase64: SIGNATURE_PNG_BASE64 });
    expect(refused.json()).toMatchObject({ status: 403, data: { code: 'signingWhileImpersonating' } });
    expect((await inject('PUT', `/api/Document/applytenantsignaturetotic/${id}`, applicant)).json().data.code).toBe('signatureRequired');
    expect((await inject('PUT', `/api/Document/applytenantsignaturetotic/${id}`, applicant, { signatureBase64: 'data:image/png;base64,AAAA' })).statusCode).toBe(422);
    const signed = await inject('PUT', `/api/Document/applytenantsignaturetotic/${id}?ipAddress=198.51.100.4`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64 });
    expect(signed.json().data.tic.signatures).toEqual([expect.objectContaining({ userId: applicant.userId, ipAddress: '198.51.100.4' })]);
    const tic = await inject('GET', `/api/LeaseUpApplication/letter/${id}/tic`, manager);
    expect(tic.headers['content-type']).toBe('application/pdf');
    expect((await inject('GET', `/api/LeaseUpApplication/letter/${id}/tic`, otherManager)).statusCode).toBe(403);

    // The household's adult member signs too (drawn in the head's session), named by member id.
    expect((await act(id, 'ApproveIncomeCertification')).json().data.code).toBe('ticNotSigned');
    const spouse = signed.json().data.tic.signers.find((s: { isHead: boolean }) => !s.isHead);
    expect(spouse.name).toBe('Karim Rahman');
    const notMember = await inject('PUT', `/api/Document/applytenantsignaturetotic/${id}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64, memberId: '00000000-0000-4000-8000-000000000000' });
    expect(notMember.json()).toMatchObject({ status: 409, data: { code: 'notASigner' } });
    const bySpouse = await inject('PUT', `/api/Document/applytenantsignaturetotic/${id}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64, memberId: spouse.id });
    expect(bySpouse.json().data.tic.signatures.map((g: { signerName: string }) => g.signerName)).toEqual(['Amina Rahman', 'Karim Rahman']);

    await act(id, 'ApproveIncomeCertification');
    const leaseEarly = await act(id, 'CompleteLeaseSigning');
    expect(leaseEarly.json().data.code).toBe('leaseNotSigned');
    const leaseSigned = await inject('POST', `/api/LeaseUpApplication/sign-lease-document/${id}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64 });
    expect(leaseSigned.json().data.leaseLetter.signatures).toHaveLength(1);
    expect((await act(id, 'CompleteLeaseSigning')).json().data).toMatchObject({ status: 'ended', currentStep: 'end' });

    const counts = await eventually(async () => {
      const c = (await inject('GET', '/api/LeaseUpApplication/counts', applicant)).json().data;
      return c.ended >= 1 ? c : undefined;
    });
    expect(counts.total).toBeGreaterThanOrEqual(1);
    expect((await inject('GET', '/api/LeaseUpApplication/counts', manager)).json().data.ended).toBeGreaterThanOrEqual(1);
  });

  it('rejection, screening consent by the background-consent route, and an appeal by file-appeal', async () => {
    const other = (await inject('GET', '/api/Opportunity/published-opportunities')).json().data.find((o: { id: string }) => o.id !== opportunityId).id;
    const id = (await inject('POST', '/api/LeaseUpApplication/apply', stranger, { opportunityId: other, householdSize: 1, householdIncome: 30_000, agreeToTerms: true })).json().data.applicationId;
    await inject('POST', `/api/Household/submit-applicant-profile/${id}`, stranger);
    // A document of another household cannot be named in this application.
    const foreign = await stack.db
      .insertInto('household_documents')
      .values({ household_id: (await stack.db.selectFrom('households').select('id').where('head_user_id', '=', applicant.userId).executeTakeFirstOrThrow()).id, document_type: 'PayStub', file_name: 'x.pdf', content_type: 'application/pdf', size_bytes: 10, uploaded_by: applicant.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await act(id, 'RejectDocuments', { documents: [{ item: 'Pay stub', documentId: foreign.id, reason: 'x' }] })).statusCode).toBe(404);
    await act(id, 'RequestConsentForScreening');
    expect((await inject('POST', `/api/LeaseUpApplication/background-consent/${id}/false`, applicant)).statusCode).toBe(403);
    expect((await inject('POST', `/api/LeaseUpApplication/background-consent/${id}/false`, stranger)).json().data).toMatchObject({ consent: 'denied', currentStep: 'decision' });
    expect((await act(id, 'RejectApplication')).json()).toMatchObject({ status: 422, data: { code: 'reasonRequired' } });
    expect((await act(id, 'RejectApplication', { reason: 'Screening declined' })).json().data.status).toBe('rejected');
    expect((await inject('POST', '/api/LeaseUpApplication/file-appeal', stranger, { applicationId: id })).statusCode).toBe(422);
    expect((await inject('POST', '/api/LeaseUpApplication/file-appeal', applicant, { applicationId: id, reason: 'x' })).statusCode).toBe(403);
    const appealed = await inject('POST', '/api/LeaseUpApplication/file-appeal', stranger, { applicationId: id, reason: 'I will consent now' });
    expect(appealed.json().data).toMatchObject({ status: 'appeal_submitted', appealReason: 'I will consent now' });
    const inbox = await eventually(async () => {
      const rows = (await inject('GET', '/api/ManagerTasks?caseKind=lease_up&limit=100', manager)).json().data.items.filter((t: { caseId: string }) => t.caseId === id);
      // The projection may still show the decision step's task; wait for the appeal's.
      return rows.some((t: { action: string }) => t.action === 'GrantAppeal') ? rows : undefined;
    });
    expect(inbox.map((t: { action: string }) => t.action)).not.toContain('ProceedToAppointmentScheduling');
    expect(inbox[0]).toMatchObject({ action: 'GrantAppeal', dueAt: appealed.json().data.appealDecisionDueAt });
    expect((await act(id, 'GrantAppeal')).json().data).toMatchObject({ status: 'in_review', currentStep: 'decision' });
    expect((await inject('POST', `/api/LeaseUpApplication/update-info/${id}`, stranger, { householdSize: 0, householdIncome: 1 })).statusCode).toBe(400);
    expect((await inject('POST', `/api/LeaseUpApplication/update-info/${id}`, applicant, { householdSize: 2, householdIncome: 1 })).statusCode).toBe(403);
    const updated = await inject('POST', `/api/LeaseUpApplication/update-info/${id}`, stranger, { householdSize: 2, householdIncome: 41_000 });
    expect(updated.json().data).toMatchObject({ householdSize: 2, householdIncome: 41_000, currentStep: 'decision' });
  });

  it('an appointment time is held by one application of the opportunity at a time', async () => {
    const [first, second] = [await makeUser(stack, { role: 'User' }), await makeUser(stack, { role: 'User' })];
    const slots = [4, 5].map((d) => new Date(Date.now() + d * 86_400_000).toISOString());
    const ids: string[] = [];
    for (const who of [first, second]) {
      const id = (await inject('POST', '/api/LeaseUpApplication/apply', who, { opportunityId, householdSize: 2, householdIncome: 50_000, agreeToTerms: true })).json().data.applicationId;
      await inject('POST', `/api/Household/submit-applicant-profile/${id}`, who);
      await act(id, 'MarkAsComplete');
      await act(id, 'ProceedToAppointmentScheduling', { slots });
      ids.push(id);
    }
    const book = (who: Headers, id: string, slot: string) => inject('POST', '/api/LeaseUpApplication/schedule-appointment', who, { applicationId: id, slot });
    const [a, b] = await Promise.all([book(first, ids[0]!, slots[0]!), book(second, ids[1]!, slots[0]!)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [winner, loser] = a.statusCode === 200 ? [[first, ids[0]!], [second, ids[1]!]] as const : [[second, ids[1]!], [first, ids[0]!]] as const;
    expect((a.statusCode === 409 ? a : b).json().data.code).toBe('slotUnavailable');
    expect((await inject('GET', `/api/LeaseUpApplication/getAvailableAppointmentSlots?applicationId=${loser[1]}`, loser[0])).json().data.slots).toEqual([slots[1]]);
    // Moving the booking frees the first time for the other applicant.
    expect((await book(winner[0], winner[1], slots[1]!)).json().data.appointmentAt).toBe(slots[1]);
    expect((await book(loser[0], loser[1], slots[0]!)).json().data.appointmentAt).toBe(slots[0]);
  });

  it('guards every route: signed out 401, wrong role 403', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const routes: ['GET' | 'POST' | 'PUT', string, 'resident' | 'manager' | 'signed_in'][] = [
      ['POST', '/api/LeaseUpApplication/apply', 'resident'],
      ['GET', `/api/LeaseUpApplication/check-application-status/${id}/${id}`, 'signed_in'],
      ['GET', '/api/LeaseUpApplication/getApplications', 'signed_in'],
      ['GET', `/api/LeaseUpApplication/getDetailsById/${id}`, 'signed_in'],
      ['POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${id}/MarkAsComplete`, 'manager'],
      ['GET', `/api/LeaseUpApplication/getAvailableAppointmentSlots?applicationId=${id}`, 'signed_in'],
      ['POST', '/api/LeaseUpApplication/schedule-appointment', 'resident'],
      ['POST', '/api/LeaseUpApplication/unit-offer/respond', 'resident'],
      ['POST', '/api/LeaseUpApplication/file-appeal', 'resident'],
      ['POST', `/api/LeaseUpApplication/withdraw-application/${id}`, 'resident'],
      ['POST', `/api/LeaseUpApplication/sign-lease-document/${id}`, 'resident'],
      ['POST', `/api/LeaseUpApplication/update-info/${id}`, 'resident'],
      ['GET', `/api/LeaseUpApplication/timeline/${id}`, 'signed_in'],
      ['POST', `/api/LeaseUpApplication/background-consent/${id}/true`, 'resident'],
      ['PUT', `/api/Document/applytenantsignaturetotic/${id}`, 'resident'],
      ['POST', `/api/Household/submit-applicant-profile/${id}`, 'resident'],
      ['GET', '/api/FavoriteOpportunity/my-favorites', 'resident'],
      ['POST', '/api/FavoriteOpportunity', 'resident'],
      ['GET', `/api/FavoriteOpportunity/${id}`, 'resident'],
      ['POST', '/api/Opportunity/manage', 'manager'],
    ];
    const admin = await signIn(stack.app, 'Admin');
    for (const [method, url, who] of routes) {
      expect([url, (await inject(method, url)).statusCode]).toEqual([url, 401]);
      const wrong = who === 'manager' ? applicant : who === 'resident' ? manager : admin;
      expect([url, (await inject(method, url, wrong, {})).statusCode]).toEqual([url, 403]);
    }
    // Public: the published list, the filtered list and a detail.
    expect((await inject('GET', '/api/Opportunity/published-opportunities')).statusCode).toBe(200);
    expect((await inject('GET', '/api/Opportunity/filtered-opportunities')).statusCode).toBe(200);
    expect((await inject('GET', `/api/Opportunity/${opportunityId}`)).statusCode).toBe(200);
  });
});
