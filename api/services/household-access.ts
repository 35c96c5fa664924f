import type { Db } from '../../infra/db/database';
import { isProfileLocked } from '../../infra/db/repositories/profile-locks';
import { HttpError, conflict, forbidden, notFound } from '../errors';
import type { Session } from '../session';
import { organizationOf } from './users';

export interface HouseholdRef {
  id: string;
  headUserId: string;
  organizationId: string | null;
}

const RESIDENT_ROLES = new Set(['User', 'Tenant']);

/**
 * The household the caller may see (spec section 6): a resident (or an ambassador impersonating
 * one: the token then carries the resident's id) sees their own; a manager sees a household of
 * their organisation by id. Anyone else, or another household, gets 404 so ids leak nothing.
 */
export async function visibleHousehold(db: Db, session: Session, householdId?: string | null): Promise<HouseholdRef> {
  if (RESIDENT_ROLES.has(session.role)) {
    const own = await ensureOwnHousehold(db, session);
    if (householdId && householdId !== own.id) throw notFound();
    return own;
  }
  if (session.role === 'Manager') {
    if (!householdId) throw new HttpError(400, 'validation', 'householdId is required');
    const row = await db.selectFrom('households').select(['id', 'head_user_id', 'organization_id']).where('id', '=', householdId).executeTakeFirst();
    const org = await organizationOf(db, session.userId);
    if (!row || !org || row.organization_id !== org) throw notFound();
    return { id: row.id, headUserId: row.head_user_id, organizationId: row.organization_id };
  }
  throw forbidden();
}

/** The caller's own household, created on first use (spec section 7: profile create and get). */
export async function ensureOwnHousehold(db: Db, session: Session): Promise<HouseholdRef> {
  if (!RESIDENT_ROLES.has(session.role)) throw forbidden();
  const find = () => db.selectFrom('households').select(['id', 'head_user_id', 'organization_id']).where('head_user_id', '=', session.userId).executeTakeFirst();
  let row = await find();
  if (!row) {
    const user = await db.selectFrom('users').select('organization_id').where('id', '=', session.userId).executeTakeFirst();
    if (!user) throw notFound();
    await db
      .insertInto('households')
      .values({ head_user_id: session.userId, organization_id: user.organization_id, household_size: 0, profile_completion: 0 })
      .onConflict((oc) => oc.column('head_user_id').doNothing())
      .execute();
    row = await find();
  }
  if (!row) throw notFound();
  return { id: row.id, headUserId: row.head_user_id, organizationId: row.organization_id };
}

/**
 * The household the caller may edit: only its own residents (managers review, they do not edit).
 * A locked profile (recertification confirmed, spec section 4) refuses every edit.
 */
export async function editableHousehold(db: Db, session: Session): Promise<HouseholdRef> {
  const household = await ensureOwnHousehold(db, session);
  if (await isProfileLocked(db, household.id)) throw conflict('profileLocked');
  return household;
}
