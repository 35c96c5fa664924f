import { sql } from 'kysely';
import { currentStatus, type AccessGrantView, type AccessSummary, type Page } from '../../domain';
import type { Db } from '../../infra/db/database';
import { summary, toState, type GrantRow } from './access-grant-rows';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';
import { ambassadorOrganizationsSql } from './organizations';

// What the portal reads of grants: whether an ambassador may act now, each user's latest grant for
// lists, and a household's grants as its settings show them.

/** Whether an ambassador may act for this household now: a live grant to one of their organisations. */
export async function hasLiveGrant(db: Db, householdUserId: string, ambassadorId: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('access_grants')
    .select('id')
    .where('user_id', '=', householdUserId)
    .where('status', '=', 'granted')
    .where('expires_at', '>', now)
    .where(sql<boolean>`organization_id in ${ambassadorOrganizationsSql(ambassadorId)}`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The latest request or grant of each user to their own organisation, for lists and dashboards. */
export async function accessSummaries(db: Db, users: { userId: string; organizationId: string }[], now: Date): Promise<Map<string, AccessSummary>> {
  if (users.length === 0) return new Map();
  const rows = await db
    .selectFrom('access_grants as g')
    .selectAll('g')
    .distinctOn('g.user_id')
    .where('g.user_id', 'in', users.map((u) => u.userId))
    .where('g.organization_id', 'in', [...new Set(users.map((u) => u.organizationId))])
    .orderBy('g.user_id')
    .orderBy('g.created_at', 'desc')
    .execute();
  const orgOf = new Map(users.map((u) => [u.userId, u.organizationId]));
  return new Map(rows.filter((r) => orgOf.get(r.user_id) === r.organization_id).map((r) => [r.user_id, summary(r, now)]));
}

const grantColumns = (db: Db) =>
  db
    .selectFrom('access_grants as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .leftJoin('users as r', 'r.id', 'g.requested_by')
    .selectAll('g')
    .select(['o.name as organization_name', 'r.first_name as requester_first', 'r.last_name as requester_last']);

type GrantViewRow = GrantRow & { organization_name: string; requester_first: string | null; requester_last: string | null };

function toView(row: GrantViewRow, now: Date): AccessGrantView {
  return {
    grantId: row.id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    status: currentStatus(toState(row), now),
    requestedAt: row.requested_at.toISOString(),
    requestedByName: `${row.requester_first ?? ''} ${row.requester_last ?? ''}`.trim(),
    grantedAt: row.granted_at?.toISOString() ?? null,
    grantedVia: row.granted_via,
    expiresAt: row.expires_at?.toISOString() ?? null,
    endedAt: row.ended_at?.toISOString() ?? (currentStatus(toState(row), now) === 'expired' ? (row.expires_at ?? row.pending_until).toISOString() : null),
    periodDays: row.period_days,
  };
}

export async function grantView(db: Db, grantId: string, now: Date): Promise<AccessGrantView | null> {
  const row = await grantColumns(db).where('g.id', '=', grantId).executeTakeFirst();
  return row ? toView(row, now) : null;
}

const newestGrants: Keyset = { keys: [{ expr: sql.ref('g.created_at'), type: 'timestamptz' }], id: sql.ref('g.id'), idType: 'uuid' };

/** The household's requests and grants, newest first (its settings). */
export async function listHouseholdGrants(db: Db, householdUserId: string, query: { cursor?: string; limit: number }, now: Date): Promise<Page<AccessGrantView>> {
  const tag = 'grants';
  const after = decodeCursor(query.cursor, newestGrants, tag);
  let q = grantColumns(db).select(keysetSelections(newestGrants)).where('g.user_id', '=', householdUserId);
  if (after) q = q.where(keysetAfter(newestGrants, 'desc', after));
  const rows = await orderByKeyset(q, newestGrants, 'desc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, newestGrants, tag, (r) => toView(r, now));
}
