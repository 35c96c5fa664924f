import type { Selectable } from 'kysely';
import { currentStatus, decideAccess, type AccessGrantActor, type AccessGrantEvent, type AccessGrantState, type AccessSummary } from '../../domain';
import type { Db } from '../../infra/db/database';
import type { AccessGrantTable } from '../../infra/db/schema/ambassador';
import { HttpError } from '../errors';

// A grant's row and the pure rules of domain/access-grant.ts: the row read as the rules' state,
// a decision applied to it under a version guard, and the row locks the answers take.

export type GrantRow = Selectable<AccessGrantTable>;

export function toState(row: GrantRow): AccessGrantState {
  return {
    status: row.status,
    periodDays: row.period_days,
    requestedAt: row.requested_at,
    pendingUntil: row.pending_until,
    grantedAt: row.granted_at,
    grantedVia: row.granted_via,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
  };
}

export function fromState(state: AccessGrantState) {
  return {
    status: state.status,
    period_days: state.periodDays,
    requested_at: state.requestedAt,
    pending_until: state.pendingUntil,
    granted_at: state.grantedAt,
    granted_via: state.grantedVia,
    expires_at: state.expiresAt,
    ended_at: state.endedAt,
  };
}

export function decideOrThrow(state: AccessGrantState | null, actor: AccessGrantActor, event: AccessGrantEvent, now: Date): AccessGrantState {
  const decision = decideAccess(state, actor, event, now);
  if (!decision.ok) throw new HttpError(decision.code === 'forbidden' ? 403 : 409, decision.code);
  return decision.state;
}

/** Writes a transition, guarded by the version read, so two answers at once cannot both apply. */
export async function writeTransition(db: Db, row: GrantRow, next: AccessGrantState, endedBy: string | null): Promise<void> {
  const result = await db
    .updateTable('access_grants')
    .set({ ...fromState(next), ended_by: next.status === 'revoked' || next.status === 'expired' ? endedBy : row.ended_by, version: row.version + 1 })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new HttpError(409, 'accessRequestNotPending');
}

/** The open (pending or granted as stored) row of a household and organisation, locked. */
export async function lockOpenGrant(db: Db, userId: string, organizationId: string) {
  return db
    .selectFrom('access_grants')
    .selectAll()
    .where('user_id', '=', userId)
    .where('organization_id', '=', organizationId)
    .where('status', 'in', ['pending', 'granted'])
    .forUpdate()
    .executeTakeFirst();
}

export const summary = (row: GrantRow, now: Date): AccessSummary => ({ grantId: row.id, status: currentStatus(toState(row), now), expiresAt: row.expires_at?.toISOString() ?? null });

/** The grant's row, locked until the transaction's end. */
export async function lockGrant(db: Db, grantId: string) {
  return db.selectFrom('access_grants').selectAll().where('id', '=', grantId).forUpdate().executeTakeFirst();
}

