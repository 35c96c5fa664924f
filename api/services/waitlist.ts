import type { Client } from '@temporalio/client';
import type { Db } from '../../infra/db/database';
import * as waitlist from '../../infra/db/repositories/waitlist';
import type { WaitlistState } from '../../domain/waitlist';
import { waitlistWorkflowId, type WaitlistStanding } from '../../domain/waitlist-check-ins';
import { checkInMonthsChanged } from '../../workflows/waitlist.messages';
import { conflict, notFound, unprocessable } from '../errors';
import type { Session } from '../session';
import { ensureOwnHousehold } from './household-access';
import { managedLottery } from './lottery';

/**
 * A waitlist seen by its households and its managers (infra/db/repositories/waitlist.ts keeps the
 * rules). A household acts only on its own applications: another's is a 404, like one that does not
 * exist. A signed-out link acts only on the application it was issued for, while it lives.
 */

export interface WaitlistDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

const answerRefusal = (outcome: waitlist.AnswerOutcome) => {
  if (outcome === 'inactive') return conflict('waitlistPlaceInactive');
  if (outcome === 'removed') return conflict('waitlistPlaceRemoved');
  return conflict('waitlistNoCheckIn');
};

/** The household's own ranked application, or 404. */
async function ownApplication(db: Db, session: Session, applicationId: string): Promise<{ householdId: string; opportunityId: string }> {
  const household = await ensureOwnHousehold(db, session);
  const row = await db
    .selectFrom('applications')
    .select(['opportunity_id'])
    .where('id', '=', applicationId)
    .where('household_id', '=', household.id)
    .where('lottery_rank', 'is not', null)
    .executeTakeFirst();
  if (!row) throw notFound();
  return { householdId: household.id, opportunityId: row.opportunity_id };
}

const standingOf = async (db: Db, householdId: string, applicationId: string, now: number): Promise<WaitlistStanding> => {
  const standing = (await waitlist.standings(db, householdId, now)).find((s) => s.applicationId === applicationId);
  if (!standing) throw notFound();
  return standing;
};

export async function myStandings(db: Db, session: Session, now = Date.now()): Promise<WaitlistStanding[]> {
  const household = await ensureOwnHousehold(db, session);
  return waitlist.standings(db, household.id, now);
}

export async function confirmMine(db: Db, session: Session, applicationId: string, now = Date.now()): Promise<WaitlistStanding> {
  const own = await ownApplication(db, session, applicationId);
  const outcome = await waitlist.confirmInterest(db, { applicationId, now, channel: 'account' });
  if (outcome !== 'confirmed' && outcome !== 'already_confirmed') throw answerRefusal(outcome);
  return standingOf(db, own.householdId, applicationId, now);
}

export async function restoreMine(db: Db, session: Session, applicationId: string, now = Date.now()): Promise<WaitlistStanding> {
  const own = await ownApplication(db, session, applicationId);
  if ((await waitlist.restorePlace(db, { applicationId, now, by: { role: 'household' } })) !== 'restored') throw conflict('waitlistCannotRestore');
  return standingOf(db, own.householdId, applicationId, now);
}

export async function declineMine(db: Db, session: Session, applicationId: string, declined: string[], now = Date.now()): Promise<WaitlistStanding> {
  const own = await ownApplication(db, session, applicationId);
  const offered = new Set(await waitlist.bedroomTypesOf(db, own.opportunityId));
  if (declined.some((d) => !offered.has(d))) throw unprocessable('unitSizeNotOffered');
  await waitlist.declineSizes(db, applicationId, declined);
  return standingOf(db, own.householdId, applicationId, now);
}

/** What a signed-out link shows (it acts on nothing). */
export async function linkView(db: Db, token: string, now = Date.now()): Promise<WaitlistStanding> {
  const applicationId = await waitlist.applicationOfLink(db, token, now);
  if (!applicationId) throw notFound('waitlistLinkInvalid');
  const app = await db.selectFrom('applications').select('household_id').where('id', '=', applicationId).executeTakeFirstOrThrow();
  return standingOf(db, app.household_id, applicationId, now).catch(() => {
    throw notFound('waitlistLinkInvalid');
  });
}

export async function linkAct(db: Db, token: string, action: 'ConfirmInterest' | 'RestorePlace', now = Date.now()): Promise<WaitlistStanding> {
  const applicationId = await waitlist.applicationOfLink(db, token, now);
  if (!applicationId) throw notFound('waitlistLinkInvalid');
  if (action === 'ConfirmInterest') {
    const outcome = await waitlist.confirmInterest(db, { applicationId, now, channel: 'link' });
    if (outcome !== 'confirmed' && outcome !== 'already_confirmed') throw answerRefusal(outcome);
  } else if ((await waitlist.restorePlace(db, { applicationId, now, by: { role: 'household' } })) !== 'restored') {
    throw conflict('waitlistCannotRestore');
  }
  return linkView(db, token, now);
}

/** The manager's lottery: its organisation's, drawn. */
async function managedWaitlist(db: Db, session: Session, opportunityId: string): Promise<{ drawnAt: Date }> {
  await managedLottery(db, session, opportunityId);
  const row = await db.selectFrom('opportunity_lotteries').select('drawn_at').where('opportunity_id', '=', opportunityId).executeTakeFirst();
  if (!row?.drawn_at) throw conflict('waitlistNotDrawn');
  return { drawnAt: new Date(row.drawn_at) };
}

async function managedApplication(db: Db, session: Session, opportunityId: string, applicationId: string): Promise<void> {
  await managedWaitlist(db, session, opportunityId);
  const row = await db.selectFrom('applications').select('id').where('id', '=', applicationId).where('opportunity_id', '=', opportunityId).where('lottery_rank', 'is not', null).executeTakeFirst();
  if (!row) throw notFound();
}

export async function managerPage(db: Db, session: Session, opportunityId: string, query: { state: WaitlistState; after: number; limit: number }, now = Date.now()) {
  await managedWaitlist(db, session, opportunityId);
  const settings = await db.selectFrom('opportunities').select('waitlist_check_in_months').where('id', '=', opportunityId).executeTakeFirstOrThrow();
  return { checkInMonths: settings.waitlist_check_in_months, ...(await waitlist.waitlistPage(db, { opportunityId, ...query, now })) };
}

export async function managerRestore(db: Db, session: Session, opportunityId: string, applicationId: string, reason: string, now = Date.now()): Promise<{ restored: true }> {
  await managedApplication(db, session, opportunityId, applicationId);
  if ((await waitlist.restorePlace(db, { applicationId, now, by: { role: 'manager', userId: session.userId, reason } })) !== 'restored') throw conflict('waitlistCannotRestore');
  return { restored: true };
}

export async function managerReturnedLetter(db: Db, session: Session, opportunityId: string, applicationId: string, now = Date.now()): Promise<{ outcome: 'confirmed' | 'restored' }> {
  await managedApplication(db, session, opportunityId, applicationId);
  const outcome = await waitlist.recordReturnedLetter(db, { applicationId, now, managerId: session.userId });
  if (outcome === 'confirmed' || outcome === 'already_confirmed') return { outcome: 'confirmed' };
  if (outcome === 'restored') return { outcome };
  throw conflict(outcome === 'not_restorable' ? 'waitlistCannotRestore' : 'waitlistNoCheckIn');
}

/**
 * A new check-in interval for the opportunity. The waitlist's workflow is told (and started, for a
 * lottery drawn before waitlists asked their households), so a waiting cycle moves to its new day.
 */
export async function setCheckInMonths(deps: WaitlistDeps, session: Session, opportunityId: string, months: number): Promise<{ checkInMonths: number }> {
  const { drawnAt } = await managedWaitlist(deps.db, session, opportunityId);
  await waitlist.setCheckInMonths(deps.db, opportunityId, months);
  await deps.temporal.workflow.signalWithStart('waitlist', {
    workflowId: waitlistWorkflowId(opportunityId),
    taskQueue: deps.taskQueue,
    args: [{ opportunityId, drawnAt: drawnAt.toISOString() }],
    signal: checkInMonthsChanged,
    signalArgs: [],
  });
  return { checkInMonths: months };
}
