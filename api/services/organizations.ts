import { sql } from 'kysely';
import { OrganizationBody, type AmbassadorOrganization, type Organization, type OrganizationKind, type OrganizationMember, type Page } from '../../domain';
import type { Db } from '../../infra/db/database';
import { HttpError } from '../errors';
import { decodeCursor, keysetAfter, orderByKeyset, keysetSelections, toPage, type Keyset } from './cursor';
import { recordAdminChange } from './admin-audit';

type OrganizationInput = ReturnType<typeof OrganizationBody.parse>;

/** Organisations an ambassador serves: those mapped to them and their own. */
export async function ambassadorOrganizationIds(db: Db, ambassadorId: string): Promise<string[]> {
  const mapped = await db.selectFrom('ambassador_organizations').select('organization_id').where('ambassador_user_id', '=', ambassadorId).execute();
  const own = await db.selectFrom('users').select('organization_id').where('id', '=', ambassadorId).executeTakeFirst();
  return [...new Set([...mapped.map((m) => m.organization_id), ...(own?.organization_id ? [own.organization_id] : [])])];
}

/** The same set as a subquery, for checks made in one statement (every impersonated request). */
export function ambassadorOrganizationsSql(ambassadorId: string) {
  return sql`(select organization_id from ambassador_organizations where ambassador_user_id = ${ambassadorId}
    union select organization_id from users where id = ${ambassadorId} and organization_id is not null)`;
}

/** Spec section 2 "no linked organisation": ambassadors and managers work only within an organisation. */
export async function requireAmbassadorOrganizations(db: Db, ambassadorId: string): Promise<string[]> {
  const ids = await ambassadorOrganizationIds(db, ambassadorId);
  if (ids.length === 0) throw new HttpError(403, 'noLinkedOrganization');
  return ids;
}

const byName: Keyset = { keys: [{ expr: sql`lower(o.name)`, type: 'text' }], id: sql.ref('o.id'), idType: 'uuid' };

const orgColumns = ['o.id', 'o.name', 'o.slug', 'o.kind', 'o.email', 'o.phone', 'o.access_period_days', 'o.retention_days', 'o.created_at'] as const;
type OrgRow = { id: string; name: string; slug: string; kind: OrganizationKind; email: string | null; phone: string | null; access_period_days: number; retention_days: number; created_at: Date };

function toOrganization(row: OrgRow): Organization {
  return {
    organizationId: row.id,
    name: row.name,
    slug: row.slug,
    kind: row.kind,
    email: row.email ?? '',
    phone: row.phone ?? '',
    accessPeriodDays: row.access_period_days,
    retentionDays: row.retention_days,
    createdAt: row.created_at.toISOString(),
  };
}

export interface OrganizationListQuery {
  search?: string;
  kind?: OrganizationKind;
  cursor?: string;
  limit: number;
}

const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every organisation (admins), by name, with search and kind filters. */
export async function listOrganizations(db: Db, query: OrganizationListQuery, onlyIds?: string[]): Promise<Page<Organization>> {
  const tag = 'orgs';
  if (onlyIds && onlyIds.length === 0) return { items: [], nextCursor: null };
  const after = decodeCursor(query.cursor, byName, tag);
  let q = db.selectFrom('organizations as o').select([...orgColumns, ...keysetSelections(byName)]);
  if (onlyIds) q = q.where('o.id', 'in', onlyIds);
  if (query.kind) q = q.where('o.kind', '=', query.kind);
  if (query.search) q = q.where(sql<boolean>`lower(o.name || ' ' || o.slug) like ${likePattern(query.search)}`);
  if (after) q = q.where(keysetAfter(byName, 'asc', after));
  const rows = await orderByKeyset(q, byName, 'asc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, byName, tag, toOrganization);
}

/** The ambassador's organisations (spec getambessdororglist/{id}), each with its number of users. */
export async function listAmbassadorOrganizations(db: Db, ambassadorId: string, query: OrganizationListQuery): Promise<Page<AmbassadorOrganization>> {
  const ids = await requireAmbassadorOrganizations(db, ambassadorId);
  const page = await listOrganizations(db, query, ids);
  if (page.items.length === 0) return { items: [], nextCursor: page.nextCursor };
  const counts = await db
    .selectFrom('users')
    .select(['organization_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('organization_id', 'in', page.items.map((o) => o.organizationId))
    .where('role', 'in', ['User', 'Tenant'])
    .groupBy('organization_id')
    .execute();
  const byOrg = new Map(counts.map((c) => [c.organization_id, Number(c.n)]));
  return { items: page.items.map((o) => ({ ...o, userCount: byOrg.get(o.organizationId) ?? 0 })), nextCursor: page.nextCursor };
}

export async function getOrganization(db: Db, organizationId: string): Promise<Organization | null> {
  const row = await db.selectFrom('organizations as o').select(orgColumns).where('o.id', '=', organizationId).executeTakeFirst();
  return row ? toOrganization(row) : null;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export async function createOrganization(db: Db, body: OrganizationInput): Promise<Organization> {
  try {
    const row = await db
      .insertInto('organizations')
      .values({ name: body.name, slug: body.slug, kind: body.kind, email: body.email, phone: body.phone, access_period_days: body.accessPeriodDays, retention_days: body.retentionDays })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await getOrganization(db, row.id))!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'slugTaken');
    throw error;
  }
}

/** A new access period applies to grants given from now on; a grant keeps the period it was given with. */
export async function updateOrganization(db: Db, organizationId: string, body: OrganizationInput): Promise<Organization> {
  try {
    const result = await db
      .updateTable('organizations')
      .set({ name: body.name, slug: body.slug, kind: body.kind, email: body.email, phone: body.phone, access_period_days: body.accessPeriodDays, retention_days: body.retentionDays, updated_at: new Date() })
      .where('id', '=', organizationId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new HttpError(404, 'notFound');
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'slugTaken');
    throw error;
  }
  return (await getOrganization(db, organizationId))!;
}

const memberKeyset: Keyset = { keys: [{ expr: sql`lower(u.first_name || ' ' || u.last_name)`, type: 'text' }], id: sql.ref('u.id'), idType: 'uuid' };

/** Managers of the organisation and the ambassadors who serve it, by name. */
export async function listOrganizationMembers(db: Db, organizationId: string, query: { cursor?: string; limit: number }): Promise<Page<OrganizationMember>> {
  const tag = `members:${organizationId}`;
  const after = decodeCursor(query.cursor, memberKeyset, tag);
  let q = db
    .selectFrom('users as u')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.username', 'u.email', 'u.role', ...keysetSelections(memberKeyset)])
    .where((eb) =>
      eb.or([
        eb.and([eb('u.organization_id', '=', organizationId), eb('u.role', 'in', ['Manager', 'HousingAmbassador'])]),
        eb.exists(eb.selectFrom('ambassador_organizations as m').select('m.organization_id').whereRef('m.ambassador_user_id', '=', 'u.id').where('m.organization_id', '=', organizationId)),
      ]),
    );
  if (after) q = q.where(keysetAfter(memberKeyset, 'asc', after));
  const rows = await orderByKeyset(q, memberKeyset, 'asc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, memberKeyset, tag, (r) => ({
    userId: r.id,
    name: `${r.first_name} ${r.last_name}`.trim(),
    username: r.username,
    email: r.email,
    role: r.role as OrganizationMember['role'],
  }));
}

/**
 * Assigns a manager (their organisation) or maps an ambassador (spec saveambassadororgmapping/{a}/{b})
 * to an organisation; other roles are refused. Recorded in the admin audit of the user.
 */
export async function assignToOrganization(db: Db, actorId: string, organizationId: string, userId: string): Promise<void> {
  const [user, org] = await Promise.all([
    db.selectFrom('users').select(['id', 'role', 'organization_id']).where('id', '=', userId).executeTakeFirst(),
    db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst(),
  ]);
  if (!user || !org) throw new HttpError(404, 'notFound');
  await db.transaction().execute(async (trx) => {
    if (user.role === 'Manager') {
      if (user.organization_id === organizationId) return;
      await trx.updateTable('users').set({ organization_id: organizationId }).where('id', '=', userId).execute();
      await recordAdminChange(trx, actorId, userId, 'organizationAssigned', { organizationId, previous: user.organization_id });
    } else if (user.role === 'HousingAmbassador') {
      const added = await trx
        .insertInto('ambassador_organizations')
        .values({ ambassador_user_id: userId, organization_id: organizationId })
        .onConflict((oc) => oc.columns(['ambassador_user_id', 'organization_id']).doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) await recordAdminChange(trx, actorId, userId, 'ambassadorMapped', { organizationId });
    } else {
      throw new HttpError(409, 'wrongRoleForOrganization');
    }
  });
}

/** Takes a manager or an ambassador off an organisation. */
export async function unassignFromOrganization(db: Db, actorId: string, organizationId: string, userId: string): Promise<void> {
  const user = await db.selectFrom('users').select(['id', 'role', 'organization_id']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new HttpError(404, 'notFound');
  await db.transaction().execute(async (trx) => {
    const unmapped = await trx.deleteFrom('ambassador_organizations').where('ambassador_user_id', '=', userId).where('organization_id', '=', organizationId).executeTakeFirst();
    const own = user.organization_id === organizationId && (user.role === 'Manager' || user.role === 'HousingAmbassador');
    if (own) await trx.updateTable('users').set({ organization_id: null }).where('id', '=', userId).execute();
    if (Number(unmapped.numDeletedRows) > 0 || own) {
      await recordAdminChange(trx, actorId, userId, user.role === 'Manager' ? 'organizationUnassigned' : 'ambassadorUnmapped', { organizationId });
    }
  });
}
