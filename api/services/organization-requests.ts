import { sql } from 'kysely';
import type { OrganizationRequest, OrganizationRequestStatus, Page } from '../../domain';
import type { Db } from '../../infra/db/database';
import { HttpError } from '../errors';
import { decodeCursor, keysetAfter, orderByKeyset, keysetSelections, toPage, type Keyset } from './cursor';
import { assignToOrganization } from './organizations';

/**
 * Spec section 2: a user with no linked organisation is told they lack permission and may apply.
 * Managers and ambassadors apply to join an organisation; an admin approves (which assigns or maps
 * them) or declines.
 */
export async function applyToOrganization(db: Db, userId: string, body: { organizationId: string; note: string }): Promise<OrganizationRequest> {
  const user = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.role !== 'Manager' && user.role !== 'HousingAmbassador') throw new HttpError(409, 'wrongRoleForOrganization');
  const org = await db.selectFrom('organizations').select('id').where('id', '=', body.organizationId).executeTakeFirst();
  if (!org) throw new HttpError(404, 'notFound');
  try {
    const row = await db.insertInto('organization_requests').values({ user_id: userId, organization_id: body.organizationId, note: body.note }).returning('id').executeTakeFirstOrThrow();
    return (await requestById(db, row.id))!;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, 'organizationRequestPending');
    throw error;
  }
}

const requestRows = (db: Db) =>
  db
    .selectFrom('organization_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('organizations as o', 'o.id', 'r.organization_id')
    .select(['r.id', 'r.user_id', 'r.organization_id', 'r.status', 'r.note', 'r.created_at', 'u.first_name', 'u.last_name', 'u.email', 'u.role', 'o.name as organization_name']);

type RequestRow = Awaited<ReturnType<ReturnType<typeof requestRows>['executeTakeFirstOrThrow']>>;

const toRequest = (r: RequestRow): OrganizationRequest => ({
  requestId: r.id,
  userId: r.user_id,
  name: `${r.first_name} ${r.last_name}`.trim(),
  email: r.email,
  role: r.role,
  organizationId: r.organization_id,
  organizationName: r.organization_name,
  status: r.status,
  note: r.note,
  createdAt: r.created_at.toISOString(),
});

async function requestById(db: Db, id: string) {
  const row = await requestRows(db).where('r.id', '=', id).executeTakeFirst();
  return row ? toRequest(row) : null;
}

/** The user's own applications still waiting (at most one per organisation). */
export async function myPendingRequests(db: Db, userId: string): Promise<OrganizationRequest[]> {
  const rows = await requestRows(db).where('r.user_id', '=', userId).where('r.status', '=', 'pending').orderBy('r.created_at', 'desc').execute();
  return rows.map(toRequest);
}

const oldestFirst: Keyset = { keys: [{ expr: sql.ref('r.created_at'), type: 'timestamptz' }], id: sql.ref('r.id'), idType: 'uuid' };

/** Applications for admins, oldest first within a status. */
export async function listOrganizationRequests(db: Db, query: { status: OrganizationRequestStatus; cursor?: string; limit: number }): Promise<Page<OrganizationRequest>> {
  const tag = `org-requests:${query.status}`;
  const after = decodeCursor(query.cursor, oldestFirst, tag);
  let q = requestRows(db).select(keysetSelections(oldestFirst)).where('r.status', '=', query.status);
  if (after) q = q.where(keysetAfter(oldestFirst, 'asc', after));
  const rows = await orderByKeyset(q, oldestFirst, 'asc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, oldestFirst, tag, toRequest);
}

export async function decideOrganizationRequest(db: Db, actorId: string, requestId: string, approve: boolean): Promise<OrganizationRequest> {
  const request = await db.selectFrom('organization_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
  if (!request) throw new HttpError(404, 'notFound');
  if (request.status !== 'pending') throw new HttpError(409, 'organizationRequestDecided');
  // Assigning is idempotent, so it goes first: a refusal (the user's role changed) leaves the application open.
  if (approve) await assignToOrganization(db, actorId, request.organization_id, request.user_id);
  const decided = await db
    .updateTable('organization_requests')
    .set({ status: approve ? 'approved' : 'declined', decided_by: actorId, decided_at: new Date() })
    .where('id', '=', requestId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(decided.numUpdatedRows) === 0) throw new HttpError(409, 'organizationRequestDecided');
  return (await requestById(db, requestId))!;
}
