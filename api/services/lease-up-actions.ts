import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { isIP } from 'node:net';
import type { ActionBody, ApplicationStatus, LeaseUpView } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { leaseUpApplicationId } from '../../workflows/ids';
import { HttpError, forbidden, notFound, unprocessable } from '../errors';
import type { Session } from '../plugins/auth';
import { act, queryView, viewerRole, type LeaseUpDeps } from './lease-up';
import { decodeSignaturePng, getSavedSignature } from './signatures';
import { householdOf, organizationOf } from './users';

/**
 * OfferUnit: the manager names units by id; the API checks they belong to the application's
 * opportunity and are not held by another active application, and hands their details to the workflow.
 */
export async function offerUnits(deps: LeaseUpDeps, session: Session, applicationId: string, body: ActionBody) {
  const view = await queryView(deps.temporal, applicationId);
  if ((await viewerRole(deps.db, session, view)) !== 'manager') throw forbidden();
  const ids = body.unitIds ?? [];
  if (ids.length === 0) throw unprocessable('unitsRequired');
  const units = await deps.db.selectFrom('units').selectAll().where('opportunity_id', '=', view.opportunityId).where('id', 'in', ids).execute();
  if (units.length !== new Set(ids).size) throw unprocessable('unitUnavailable');
  const held = await deps.db
    .selectFrom('applications')
    .select('held_unit_id')
    .where('held_unit_id', 'in', ids)
    .where('id', '!=', applicationId)
    .where('status', 'in', ['in_review', 'rejected', 'appeal_submitted', 'ended'] satisfies ApplicationStatus[])
    .execute();
  if (held.length > 0) throw new HttpError(409, 'unitUnavailable');
  return act(deps, session, applicationId, 'OfferUnit', {
    ...body,
    units: units.map((u) => ({ unitId: u.id, unitNumber: u.unit_number, bedroomType: u.bedroom_type, address: u.address })),
  });
}

/** The client's IPv4 from the optional `ipAddress` query (spec section 7), else the connection's address. */
export function clientIp(queryIp: string | undefined, requestIp: string): string {
  if (queryIp && isIP(queryIp)) return queryIp;
  return requestIp.replace(/^::ffff:/, '');
}

/**
 * Signs the TIC or the lease letter. Refused while impersonating (an ambassador or manager may not
 * sign for someone). The signature image is the one sent, or else the user's saved signature; a copy
 * is kept with the application so a later change of the saved signature does not alter this one.
 */
export async function sign(
  deps: LeaseUpDeps & { blobs: BlobStore },
  session: Session,
  applicationId: string,
  kind: 'tic' | 'lease',
  input: { signatureBase64?: string; ipAddress: string; memberId?: string },
) {
  if (session.realUserId) throw new HttpError(403, 'signingWhileImpersonating');
  const view = await queryView(deps.temporal, applicationId);
  if ((await viewerRole(deps.db, session, view)) !== 'applicant') throw forbidden();
  const letter = kind === 'tic' ? view.tic : view.leaseLetter;
  if (!letter) throw new HttpError(409, kind === 'tic' ? 'ticNotGeneratedYet' : 'leaseLetterNotGeneratedYet');
  let png: Buffer | null = null;
  if (input.signatureBase64) {
    png = decodeSignaturePng(input.signatureBase64);
    if (!png) throw unprocessable('emptySignature');
  } else {
    png = (await getSavedSignature(deps.db, deps.blobs, session.userId))?.png ?? null;
    if (!png) throw unprocessable('signatureRequired');
  }
  // An adult member's signature is drawn in the head's session; the TIC names who must sign.
  const member = input.memberId ? letter.signers?.find((s) => s.id === input.memberId && !s.isHead) : undefined;
  if (input.memberId && !member) throw new HttpError(409, 'notASigner');
  const signerId = member?.id ?? session.userId;
  const signatureKey = `applications/${applicationId}/signatures/${signerId}-${randomUUID()}.png`;
  await deps.blobs.put(signatureKey, png, 'image/png');
  const user = await deps.db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', session.userId).executeTakeFirstOrThrow();
  return act(deps, session, applicationId, kind === 'tic' ? 'SignTIC' : 'SignLeaseLetter', {
    signature: { signatureKey, ipAddress: input.ipAddress, signerName: member?.name ?? `${user.first_name} ${user.last_name}`, signerId },
  });
}

/** The latest copy of a letter (signed by the most signers so far) for the household or its manager. */
export async function letterPdf(deps: LeaseUpDeps & { blobs: BlobStore }, session: Session, applicationId: string, kind: 'tic' | 'lease') {
  const view = await queryView(deps.temporal, applicationId);
  await viewerRole(deps.db, session, view);
  const letter = kind === 'tic' ? view.tic : view.leaseLetter;
  if (!letter) throw notFound(kind === 'tic' ? 'ticNotGeneratedYet' : 'leaseLetterNotGeneratedYet');
  const object = await deps.blobs.get(letter.signatures.at(-1)?.signedKey ?? letter.key);
  if (!object) throw notFound();
  return object.body;
}

/** `getAvailableAppointmentSlots`: the future slots offered to this application, the booked one excluded. */
export async function availableSlots(deps: LeaseUpDeps, session: Session, applicationId: string) {
  const view = await queryView(deps.temporal, applicationId);
  await viewerRole(deps.db, session, view);
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
  const view = await queryView(deps.temporal, applicationId);
  if ((await viewerRole(deps.db, session, view)) !== 'applicant') throw forbidden();
  const action = view.currentStep === 'screening' && view.appointmentAt ? 'RescheduleAppointment' : 'ScheduleAppointment';
  const at = new Date(slot);
  const taken = await deps.db
    .insertInto('appointment_bookings')
    .values({ opportunity_id: view.opportunityId, slot: at, application_id: applicationId })
    .onConflict((oc) => oc.columns(['opportunity_id', 'slot']).doNothing())
    .executeTakeFirst();
  const mine = Number(taken.numInsertedOrUpdatedRows ?? 0) > 0;
  if (!mine) {
    const holder = await deps.db.selectFrom('appointment_bookings').select('application_id').where('opportunity_id', '=', view.opportunityId).where('slot', '=', at).executeTakeFirst();
    if (holder && holder.application_id !== applicationId) throw new HttpError(409, 'slotUnavailable');
  }
  let result;
  try {
    result = await act(deps, session, applicationId, action, { slot });
  } catch (error) {
    if (mine) await release(deps.db, applicationId, at);
    throw error;
  }
  if (view.appointmentAt && Date.parse(view.appointmentAt) !== at.getTime()) await release(deps.db, applicationId, new Date(view.appointmentAt));
  return result;
}

async function release(db: Db, applicationId: string, slot: Date): Promise<void> {
  await db.deleteFrom('appointment_bookings').where('application_id', '=', applicationId).where('slot', '=', slot).execute();
}

/**
 * `check-application-status/{opportunityId}/{userId}`: whether this user's household has applied to
 * the opportunity. Only the user themself (or a manager of the opportunity's organisation) may ask.
 */
export async function checkStatus({ db, temporal }: LeaseUpDeps, session: Session, opportunityId: string, userId: string) {
  if (session.userId !== userId) {
    const opportunity = await db.selectFrom('opportunities').select('organization_id').where('id', '=', opportunityId).executeTakeFirst();
    if (session.role !== 'Manager' || !opportunity || (await organizationOf(db, session.userId)) !== opportunity.organization_id) throw forbidden();
  }
  const household = await householdOf(db, userId);
  if (!household) return { applied: false, applicationId: null, status: null, currentStep: null };
  const applicationId = leaseUpApplicationId(opportunityId, household.id);
  const row = await db.selectFrom('applications').select(['status', 'current_step']).where('id', '=', applicationId).executeTakeFirst();
  if (row) return { applied: true, applicationId, status: row.status, currentStep: row.current_step };
  // Just applied, not yet in the read model: the workflow (the source of truth) answers.
  try {
    const view = await queryView(temporal, applicationId);
    return { applied: true, applicationId, status: view.status, currentStep: view.currentStep };
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return { applied: false, applicationId: null, status: null, currentStep: null };
    throw error;
  }
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
  return { total: 0, in_review: 0, rejected: 0, appeal_submitted: 0, withdrawn: 0, closed: 0, ended: 0, overdueTasks: 0 };
}

export type { LeaseUpView };
