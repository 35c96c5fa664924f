import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { ApplicationStatus, OfferUnitBody } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { leaseUpApplicationId } from '../../infra/temporal/ids';
import { HttpError, forbidden, notFound } from '../errors';
import type { Session } from '../session';
import { access, act, detail, type LeaseUpDeps } from './lease-up';
import { decodeSignaturePng, getSavedSignature } from './signatures';
import { householdOf, organizationOf } from './users';

/**
 * OfferUnit: the manager names units by id; the API reads their details from the application's
 * opportunity (refusing units of another opportunity, or held by another active application, which
 * only the read model knows) and hands them to the workflow, which decides the rest.
 */
export async function offerUnits(deps: LeaseUpDeps, session: Session, applicationId: string, body: OfferUnitBody) {
  const caller = await access(deps.db, session, applicationId);
  if (caller.role !== 'manager') throw forbidden();
  const ids = body.unitIds;
  const [application, units, held] = await Promise.all([
    deps.db.selectFrom('applications').select('opportunity_id').where('id', '=', applicationId).executeTakeFirstOrThrow(),
    ids.length ? deps.db.selectFrom('units').selectAll().where('id', 'in', ids).execute() : Promise.resolve([]),
    ids.length
      ? deps.db
          .selectFrom('applications')
          .select('held_unit_id')
          .where('held_unit_id', 'in', ids)
          .where('id', '!=', applicationId)
          .where('status', 'in', ['in_review', 'rejected', 'appeal_submitted', 'ended'] satisfies ApplicationStatus[])
          .execute()
      : Promise.resolve([]),
  ]);
  if (units.length !== new Set(ids).size || units.some((u) => u.opportunity_id !== application.opportunity_id)) throw new HttpError(422, 'unitUnavailable');
  if (held.length > 0) throw new HttpError(409, 'unitUnavailable');
  return act(deps, session, applicationId, 'OfferUnit', {
    ...(body.reason ? { reason: body.reason } : {}),
    ...(body.expiresAt ? { expiresAt: body.expiresAt } : {}),
    units: units.map((u) => ({ unitId: u.id, unitNumber: u.unit_number, bedroomType: u.bedroom_type, address: u.address })),
  }, caller);
}

/** A unit the manager may offer on one application (the unit-offer dialog lists only these). */
export interface OfferableUnit {
  id: string;
  unitNumber: string;
  bedroomType: string;
  address: string;
  monthlyRent: number;
}

/**
 * The units of the application's opportunity that no other active application holds: the same rule
 * `offerUnits` refuses by, so the dialog offers nothing the API would answer 'This unit is not
 * available'. Units already offered on this application are left out by the web app, from the view.
 */
export async function offerableUnits(deps: LeaseUpDeps, session: Session, applicationId: string): Promise<OfferableUnit[]> {
  const caller = await access(deps.db, session, applicationId);
  if (caller.role !== 'manager') throw forbidden();
  const application = await deps.db.selectFrom('applications').select('opportunity_id').where('id', '=', applicationId).executeTakeFirstOrThrow();
  const rows = await deps.db
    .selectFrom('units as u')
    .select(['u.id', 'u.unit_number', 'u.bedroom_type', 'u.address', 'u.monthly_rent'])
    .where('u.opportunity_id', '=', application.opportunity_id)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('applications as a')
            .select('a.id')
            .whereRef('a.held_unit_id', '=', 'u.id')
            .where('a.id', '!=', applicationId)
            .where('a.status', 'in', ['in_review', 'rejected', 'appeal_submitted', 'ended'] satisfies ApplicationStatus[]),
        ),
      ),
    )
    .orderBy('u.unit_number')
    .execute();
  return rows.map((u) => ({ id: u.id, unitNumber: u.unit_number, bedroomType: u.bedroom_type, address: u.address, monthlyRent: Number(u.monthly_rent) }));
}

/** The client's IPv4 from the optional `ipAddress` query (spec section 7), else the connection's address. */
export function clientIp(queryIp: string | undefined, requestIp: string): string {
  if (queryIp && isIP(queryIp)) return queryIp;
  return requestIp.replace(/^::ffff:/, '');
}

/**
 * Signs the TIC or the lease letter with the image sent, or else the user's saved signature. A copy
 * is kept with the application, so a later change of the saved signature does not alter this one.
 * Whether this person may sign now (step, impersonation, signer, already signed) is the workflow's
 * decision; the signer's name comes from the letter's list of signers in the projected view.
 */
export async function sign(
  deps: LeaseUpDeps & { blobs: BlobStore },
  session: Session,
  applicationId: string,
  kind: 'tic' | 'lease',
  input: { signatureBase64?: string; ipAddress: string; memberId?: string },
) {
  const caller = await access(deps.db, session, applicationId);
  if (caller.role !== 'applicant') throw forbidden();
  let png: Buffer | null;
  if (input.signatureBase64) {
    png = decodeSignaturePng(input.signatureBase64);
    if (!png) throw new HttpError(422, 'emptySignature');
  } else {
    png = (await getSavedSignature(deps.db, deps.blobs, session.userId))?.png ?? null;
  }
  const action = kind === 'tic' ? 'SignTIC' : 'SignLeaseLetter';
  if (!png) return act(deps, session, applicationId, action, {}, caller);
  // An adult member's signature is drawn in the head's session and named by member id.
  const signerId = input.memberId ?? session.userId;
  const signerName = input.memberId
    ? (await deps.db.selectFrom('household_members').select('full_name').where('id', '=', input.memberId).where('household_id', '=', caller.householdId).executeTakeFirst())?.full_name
    : await deps.db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', session.userId).executeTakeFirst().then((u) => u && `${u.first_name} ${u.last_name}`);
  // A member of another household (or none) is not a signer of this letter: the workflow refuses it.
  const signatureKey = `applications/${applicationId}/signatures/${signerId}-${randomUUID()}.png`;
  if (signerName) await deps.blobs.put(signatureKey, png, 'image/png');
  return act(deps, session, applicationId, action, {
    signature: { signatureKey, ipAddress: input.ipAddress, signerName: signerName ?? '', signerId },
  }, caller);
}

/** The latest copy of a letter (signed by the most signers so far) for the household or its manager. */
export async function letterPdf(deps: LeaseUpDeps & { blobs: BlobStore }, session: Session, applicationId: string, kind: 'tic' | 'lease') {
  const view = await detail(deps, session, applicationId);
  const letter = kind === 'tic' ? view.tic : view.leaseLetter;
  if (!letter) throw notFound(kind === 'tic' ? 'ticNotGeneratedYet' : 'leaseLetterNotGeneratedYet');
  const object = await deps.blobs.get(letter.signatures.at(-1)?.signedKey ?? letter.key);
  if (!object) throw notFound();
  return object.body;
}

/** `getAvailableAppointmentSlots`: the future slots offered to this application, the booked one excluded. */
export async function availableSlots(deps: LeaseUpDeps, session: Session, applicationId: string) {
  const view = await detail(deps, session, applicationId);
  const now = Date.now();
  const taken = await bookedByOthers(deps.db, view.opportunityId, applicationId, view.appointmentSlots);
  return {
    slots: view.appointmentSlots.filter((s) => Date.parse(s) > now && s !== view.appointmentAt && !taken.has(Date.parse(s))),
    appointmentAt: view.appointmentAt,
  };
}

async function bookedByOthers(db: Db, opportunityId: string, applicationId: string, slots: string[]): Promise<Set<number>> {
  if (slots.length === 0) return new Set();
  const rows = await db
    .selectFrom('appointment_bookings')
    .select('slot')
    .where('opportunity_id', '=', opportunityId)
    .where('application_id', '!=', applicationId)
    .where('slot', 'in', slots.map((s) => new Date(s)))
    .execute();
  return new Set(rows.map((r) => new Date(r.slot).getTime()));
}

/**
 * `schedule-appointment`: books a slot, or moves the booking once one exists. A slot is held for one
 * application of the opportunity at a time: the booking row is taken first (its primary key refuses a
 * second holder, also at the same moment), released again if the workflow refuses, and the previous
 * slot is released once the move is accepted.
 */
export async function scheduleAppointment(deps: LeaseUpDeps, session: Session, applicationId: string, slot: string) {
  const caller = await access(deps.db, session, applicationId);
  if (caller.role !== 'applicant') throw forbidden();
  const { opportunity_id: opportunityId } = await deps.db.selectFrom('applications').select('opportunity_id').where('id', '=', applicationId).executeTakeFirstOrThrow();
  const at = new Date(slot);
  const taken = await deps.db
    .insertInto('appointment_bookings')
    .values({ opportunity_id: opportunityId, slot: at, application_id: applicationId })
    .onConflict((oc) => oc.columns(['opportunity_id', 'slot']).doNothing())
    .executeTakeFirst();
  const mine = Number(taken.numInsertedOrUpdatedRows ?? 0) > 0;
  if (!mine) {
    const holder = await deps.db.selectFrom('appointment_bookings').select('application_id').where('opportunity_id', '=', opportunityId).where('slot', '=', at).executeTakeFirst();
    if (holder && holder.application_id !== applicationId) throw new HttpError(409, 'slotUnavailable');
  }
  // Booking or moving: the read model says which (it may lag the workflow by a moment, so the other
  // action is tried when the workflow answers that this one is not available at its current step).
  const booked = caller.view?.currentStep === 'screening' && caller.view.appointmentAt !== null;
  const [first, second] = booked ? (['RescheduleAppointment', 'ScheduleAppointment'] as const) : (['ScheduleAppointment', 'RescheduleAppointment'] as const);
  let result;
  try {
    result = await act(deps, session, applicationId, first, { slot }, caller).catch((error: unknown) => {
      if (error instanceof HttpError && error.code === 'actionNotAllowedNow') return act(deps, session, applicationId, second, { slot }, caller);
      throw error;
    });
  } catch (error) {
    if (mine) await deps.db.deleteFrom('appointment_bookings').where('application_id', '=', applicationId).where('slot', '=', at).execute();
    throw error;
  }
  // The application holds one time: a move gives the previous one back to the others.
  await deps.db.deleteFrom('appointment_bookings').where('application_id', '=', applicationId).where('slot', '!=', at).execute();
  return result;
}

/**
 * `check-application-status/{opportunityId}/{userId}`: whether this user's household has applied to
 * the opportunity. Only the user themself (or a manager of the opportunity's organisation) may ask.
 */
export async function checkStatus({ db }: LeaseUpDeps, session: Session, opportunityId: string, userId: string) {
  if (session.userId !== userId) {
    const opportunity = await db.selectFrom('opportunities').select('organization_id').where('id', '=', opportunityId).executeTakeFirst();
    if (session.role !== 'Manager' || !opportunity || (await organizationOf(db, session.userId)) !== opportunity.organization_id) throw forbidden();
  }
  const household = await householdOf(db, userId);
  if (!household) return { applied: false, applicationId: null, status: null, currentStep: null };
  const applicationId = leaseUpApplicationId(opportunityId, household.id);
  // The read-model row is written before the workflow starts, so it answers for every application.
  const row = await db.selectFrom('applications').select(['status', 'current_step']).where('id', '=', applicationId).executeTakeFirst();
  if (row) return { applied: true, applicationId, status: row.status, currentStep: row.current_step };
  return { applied: false, applicationId: null, status: null, currentStep: null };
}

/** Application counts by status for the caller's household, or a manager's organisation. */
export async function counts(db: Db, session: Session): Promise<Record<ApplicationStatus | 'total' | 'overdueTasks', number>> {
  let query = db.selectFrom('applications').select(['status', db.fn.countAll<string>().as('n')]).groupBy('status');
  let orgId: string | null = null;
  if (session.role === 'Manager') {
    orgId = await organizationOf(db, session.userId);
    if (!orgId) throw forbidden();
    query = query.where('organization_id', '=', orgId);
  } else {
    const household = await householdOf(db, session.userId);
    if (!household) return empty();
    query = query.where('household_id', '=', household.id);
  }
  const result = empty();
  for (const row of await query.execute()) {
    result[row.status] = Number(row.n);
    result.total += Number(row.n);
  }
  if (orgId) {
    const overdue = await db
      .selectFrom('manager_tasks')
      .select(db.fn.countAll<string>().as('n'))
      .where('organization_id', '=', orgId)
      .where('case_kind', '=', 'lease_up')
      .where('overdue', '=', true)
      .executeTakeFirst();
    result.overdueTasks = Number(overdue?.n ?? 0);
  }
  return result;
}

function empty(): Record<ApplicationStatus | 'total' | 'overdueTasks', number> {
  return { total: 0, in_lottery: 0, waitlisted: 0, skipped: 0, in_review: 0, rejected: 0, appeal_submitted: 0, withdrawn: 0, closed: 0, ended: 0, overdueTasks: 0 };
}

