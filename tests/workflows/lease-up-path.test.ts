import { recordHistory } from '../helpers/histories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseUpView } from '../../domain';
import { getLeaseUpView } from '../../workflows/lease-up.messages';
import { startLeaseUpTimeSkipping } from '../helpers/lease-up-env';
import { seedHouseholdProfile } from '../../infra/seed-household';
import { eventually } from '../helpers/stack';

type Env = Awaited<ReturnType<typeof startLeaseUpTimeSkipping>>;

/** Lease-up workflow on a time-skipping server: the whole path, offers, letters and signing. */
describe.sequential('lease-up workflow: the path to lease signing (time skipping)', () => {
  let t: Env;
  beforeAll(async () => {
    t = await startLeaseUpTimeSkipping();
  }, 180_000);
  afterAll(() => t?.close());

  /** Takes a new application to the unit-offer step with an appointment booked. */
  async function toScreening() {
    const { handle, input } = await t.start();
    const me = t.applicant(input.applicantUserId);
    await t.send(handle, 'SubmitProfile', me);
    await t.send(handle, 'MarkAsComplete', t.manager());
    const slots = [await t.inHours(72), await t.inHours(96)];
    await t.send(handle, 'ProceedToAppointmentScheduling', t.manager({ slots }));
    await t.send(handle, 'ScheduleAppointment', t.applicant(input.applicantUserId, { slot: slots[0] }));
    return { handle, input, me, slots };
  }
  const unit = (i: number) => ({ unitId: t.units[i]!.id, unitNumber: t.units[i]!.unit_number, bedroomType: t.units[i]!.bedroom_type, address: t.units[i]!.address });

  it('goes from apply to lease signing: appointment with reminders, offers, TIC and lease letter signed, ended', async () => {
    const { handle, input, me, slots } = await toScreening();
    let view: LeaseUpView = await handle.query(getLeaseUpView);
    expect(view.currentStep).toBe('screening');
    expect(view.appointmentAt).toBe(slots[0]);
    // Rescheduling moves the booking (and its reminders).
    view = await t.send(handle, 'RescheduleAppointment', t.applicant(input.applicantUserId, { slot: slots[1] }));
    expect(view.appointmentAt).toBe(slots[1]);

    // The day-before and hour-before reminders go to the applicant's outbox, once each.
    await t.env.sleep('96 hours');
    const reminders = await eventually(async () => {
      const rows = await t.db.selectFrom('notification_outbox').select(['template', 'dedupe_key']).where('user_id', '=', input.applicantUserId).execute();
      return rows.length >= 2 ? rows : undefined;
    });
    expect(reminders.map((r) => r.template)).toEqual(['lease-up-appointment-reminder', 'lease-up-appointment-reminder']);
    expect(reminders.map((r) => r.dedupe_key).join()).toContain('appt-2');

    view = await t.send(handle, 'OfferUnit', t.manager({ units: [unit(0), unit(1)] }));
    expect(view.currentStep).toBe('unit_offer');
    expect(view.offers.map((o) => o.status)).toEqual(['open', 'open']);
    // The household is told of the offer once (one notice for the units offered together), before the answer.
    const offerNotices = await t.db.selectFrom('notification_outbox').select('dedupe_key').where('user_id', '=', input.applicantUserId).where('template', '=', 'lease-up-offer-made').execute();
    expect(offerNotices.map((n) => n.dedupe_key)).toEqual([`lease-up:${input.applicationId}:offer-made-2`]);
    expect(view.pendingTasks).toContainEqual(expect.objectContaining({ role: 'applicant', action: 'RespondToUnitOffer', dueAt: view.offers[0]!.expiresAt }));

    // Accepting one offer hides the other; accepting is irreversible.
    view = await t.send(handle, 'RespondToUnitOffer', t.applicant(input.applicantUserId, { offerId: 'offer-1', accept: true }));
    expect(view.offers.map((o) => o.status)).toEqual(['accepted', 'superseded']);
    expect(view.heldUnitId).toBe(t.units[0]!.id);
    expect(await t.refusal(t.send(handle, 'RespondToUnitOffer', t.applicant(input.applicantUserId, { offerId: 'offer-1', accept: false })))).toBe('offerNotOpen');
    expect(await t.refusal(t.send(handle, 'OfferUnit', t.manager({ units: [unit(2)] })))).toBe('offerAlreadyAccepted');

    view = await t.send(handle, 'ProceedWithUnitOffer', t.manager());
    expect(view.currentStep).toBe('income_certification');
    expect(await t.refusal(t.send(handle, 'SignTIC', t.applicant(input.applicantUserId, { signature: await t.signature(input.applicantUserId) })))).toBe('ticNotGeneratedYet');
    expect(await t.refusal(t.send(handle, 'ApproveIncomeCertification', t.manager()))).toBe('ticNotGeneratedYet');

    view = await t.send(handle, 'GenerateIncomeCertification', t.manager());
    expect(view.tic?.key).toMatch(/^applications\/.+\/letters\/tic-v\d+\.pdf$/);
    const tic = await t.blobs.get(view.tic!.key);
    expect(tic?.contentType).toBe('application/pdf');
    expect(tic?.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await t.refusal(t.send(handle, 'ApproveIncomeCertification', t.manager()))).toBe('ticNotSigned');

    // Nobody signs for someone else: acting for the applicant is refused.
    const impersonated = { actor: { userId: input.applicantUserId, role: 'applicant' as const, impersonatedBy: input.organizationId }, signature: await t.signature(input.applicantUserId) };
    expect(await t.refusal(t.send(handle, 'SignTIC', impersonated))).toBe('signingWhileImpersonating');
    expect(await t.refusal(t.send(handle, 'SignTIC', me))).toBe('signatureRequired');

    view = await t.send(handle, 'SignTIC', t.applicant(input.applicantUserId, { signature: await t.signature(input.applicantUserId) }));
    expect(view.tic?.signatures).toEqual([expect.objectContaining({ userId: input.applicantUserId, ipAddress: '203.0.113.7' })]);
    const signed = await t.blobs.get(view.tic!.signatures[0]!.signedKey);
    expect(signed!.body.length).toBeGreaterThan(tic!.body.length);
    expect(await t.refusal(t.send(handle, 'SignTIC', t.applicant(input.applicantUserId, { signature: await t.signature(input.applicantUserId) })))).toBe('alreadySigned');

    view = await t.send(handle, 'ApproveIncomeCertification', t.manager());
    expect(view.currentStep).toBe('lease_signing');
    expect(view.leaseLetter?.key).toMatch(/lease-v\d+\.pdf$/);
    expect(await t.refusal(t.send(handle, 'CompleteLeaseSigning', t.manager()))).toBe('leaseNotSigned');
    view = await t.send(handle, 'SignLeaseLetter', t.applicant(input.applicantUserId, { signature: await t.signature(input.applicantUserId) }));
    expect(view.leaseLetter?.signatures).toHaveLength(1);
    view = await t.send(handle, 'CompleteLeaseSigning', t.manager());
    expect(view).toMatchObject({ status: 'ended', currentStep: 'end' });
    expect(view.timeline.every((s) => s.state === 'complete' || s.state === 'skipped')).toBe(true);
    expect(await handle.result()).toBe('ended');

    const row = await eventually(async () => {
      const r = await t.db.selectFrom('applications').selectAll().where('id', '=', input.applicationId).executeTakeFirst();
      return r?.status === 'ended' ? r : undefined;
    });
    expect(row.held_unit_id).toBe(t.units[0]!.id);
    await recordHistory('lease-up-full-path', handle);
  });

  it('an expired offer closes; the manager offers another unit; a declined offer is closed for good', async () => {
    const { handle, input } = await toScreening();
    await t.send(handle, 'OfferUnit', t.manager({ units: [unit(0)] }));
    // Per-opportunity default: the offer expires after 7 days.
    await t.env.sleep('8 days');
    let view = await eventually(async () => {
      const v = await handle.query(getLeaseUpView);
      return v.offers[0]?.status === 'expired' ? v : undefined;
    });
    expect(view.history.map((h) => h.action)).toContain('UnitOfferExpired');
    expect(view.availableActions.manager).toContain('OfferUnit');
    expect(view.availableActions.applicant).not.toContain('RespondToUnitOffer');
    expect(await t.refusal(t.send(handle, 'RespondToUnitOffer', t.applicant(input.applicantUserId, { offerId: 'offer-1', accept: true })))).toBe('offerNotOpen');
    expect(await t.refusal(t.send(handle, 'ProceedWithUnitOffer', t.manager()))).toBe('offerNotAccepted');

    await t.send(handle, 'OfferUnit', t.manager({ units: [unit(1)] }));
    view = await t.send(handle, 'RespondToUnitOffer', t.applicant(input.applicantUserId, { offerId: 'offer-2', accept: false }));
    expect(view.offers.map((o) => o.status)).toEqual(['expired', 'declined']);
    expect(await t.refusal(t.send(handle, 'RespondToUnitOffer', t.applicant(input.applicantUserId, { offerId: 'offer-2', accept: true })))).toBe('offerNotOpen');
    await t.send(handle, 'OfferUnit', t.manager({ units: [unit(1)] }));
    view = await t.send(handle, 'RespondToUnitOffer', t.applicant(input.applicantUserId, { offerId: 'offer-3', accept: true }));
    expect(view.offers.map((o) => o.status)).toEqual(['expired', 'declined', 'accepted']);
    const notices = await t.db.selectFrom('notification_outbox').select('template').where('user_id', '=', input.applicantUserId).execute();
    expect(notices.map((n) => n.template)).toContain('lease-up-offer-expired');
  });

  it('withdrawal is possible at several stages, releases open offers, and is final', async () => {
    // At the unit offer, with an open offer.
    const a = await toScreening();
    await t.send(a.handle, 'OfferUnit', t.manager({ units: [unit(0)] }));
    let view = await t.send(a.handle, 'Withdraw', a.me);
    expect(view.status).toBe('withdrawn');
    expect(view.offers[0]!.status).toBe('superseded');
    expect(view.heldUnitId).toBeNull();
    expect(await a.handle.result()).toBe('withdrawn');

    // During additional documents.
    const b = await t.start();
    await t.send(b.handle, 'RequestAdditionalDocuments', t.manager({ documentTypes: ['Pay stub'] }));
    view = await t.send(b.handle, 'Withdraw', t.applicant(b.input.applicantUserId));
    expect(view).toMatchObject({ status: 'withdrawn', currentStep: 'additional_documents' });
    expect(await b.handle.result()).toBe('withdrawn');

    // With an appeal submitted.
    const c = await t.start();
    await t.send(c.handle, 'SubmitProfile', t.applicant(c.input.applicantUserId));
    await t.send(c.handle, 'MarkAsComplete', t.manager());
    await t.send(c.handle, 'RejectApplication', t.manager({ reason: 'Incomplete income records' }));
    await t.send(c.handle, 'Appeal', t.applicant(c.input.applicantUserId, { reason: 'Records attached now' }));
    view = await t.send(c.handle, 'Withdraw', t.applicant(c.input.applicantUserId));
    expect(view.status).toBe('withdrawn');
    expect(await c.handle.result()).toBe('withdrawn');
  });
  it('the TIC is signed by the head of household and each adult member before it can be approved', async () => {
    const { handle, input } = await toScreening();
    // The household has an adult member besides the head (the demo profile: head and spouse).
    await t.db.transaction().execute((trx) =>
      seedHouseholdProfile(trx, { householdId: input.householdId, headUserId: input.applicantUserId, fullName: 'Lease Head', email: `head-${input.householdId}@example.org`, spouseName: 'Pat Spouse' }),
    );
    await t.send(handle, 'OfferUnit', t.manager({ units: [unit(2)] }));
    await t.send(handle, 'RespondToUnitOffer', t.applicant(input.applicantUserId, { offerId: 'offer-1', accept: true }));
    await t.send(handle, 'ProceedWithUnitOffer', t.manager());
    let view = await t.send(handle, 'GenerateIncomeCertification', t.manager());
    const signers = view.tic!.signers!;
    expect(signers.map((s) => [s.name, s.isHead])).toEqual([[expect.any(String), true], ['Pat Spouse', false]]);
    const spouse = signers[1]!;

    const sign = async (signerId?: string, signerName = 'Lease Head') =>
      t.send(handle, 'SignTIC', t.applicant(input.applicantUserId, { signature: { ...(await t.signature(input.applicantUserId, signerName)), ...(signerId ? { signerId } : {}) } }));
    view = await sign();
    expect(view.availableActions.applicant).toContain('SignTIC'); // the spouse has not signed yet
    expect(await t.refusal(t.send(handle, 'ApproveIncomeCertification', t.manager()))).toBe('ticNotSigned');
    expect(await t.refusal(sign('00000000-0000-4000-8000-000000000000', 'Someone Else'))).toBe('notASigner');
    expect(await t.refusal(sign())).toBe('alreadySigned');

    view = await sign(spouse.id, spouse.name);
    expect(view.tic!.signatures.map((s) => s.userId)).toEqual([input.applicantUserId, spouse.id]);
    expect(view.tic!.signatures[1]!.signerName).toBe('Pat Spouse');
    expect(view.availableActions.applicant).not.toContain('SignTIC');
    view = await t.send(handle, 'ApproveIncomeCertification', t.manager());
    expect(view.currentStep).toBe('lease_signing');
    await recordHistory('lease-up-tic-adult-signers', handle);
  });
});
