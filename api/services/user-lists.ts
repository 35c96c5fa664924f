import { sql } from 'kysely';
import type { Page, Role, SortDirection, UserListRow, UserSort, UserStatus } from '../../domain';
import type { Db } from '../../infra/db/database';
import { decodeCursor, keysetAfter, orderByKeyset, keysetSelections, toPage, type Keyset } from './cursor';

/**
 * The users lists of the ambassador (their organisations' residents) and the admin (everyone):
 * one query shape, keyset-paged, each sort and filter backed by an index of migration
 * 2026-11-23T0700 (`users_org_*` for an organisation, `users_*` for all).
 */
export interface UserListFilter {
  search?: string;
  status?: UserStatus;
  role?: Role;
  roles?: readonly Role[];
  organizationIds?: readonly string[];
  sort: UserSort;
  dir: SortDirection;
  cursor?: string;
  limit: number;
}

const SORTS: Record<UserSort, Keyset> = {
  name: { keys: [{ expr: sql`lower(u.first_name || ' ' || u.last_name)`, type: 'text' }], id: sql.ref('u.id'), idType: 'uuid' },
  username: { keys: [{ expr: sql`lower(u.username)`, type: 'text' }], id: sql.ref('u.id'), idType: 'uuid' },
  email: { keys: [{ expr: sql`lower(u.email)`, type: 'text' }], id: sql.ref('u.id'), idType: 'uuid' },
  createdAt: { keys: [{ expr: sql.ref('u.created_at'), type: 'timestamptz' }], id: sql.ref('u.id'), idType: 'uuid' },
  status: { keys: [{ expr: sql.ref('u.status'), type: 'text' }, { expr: sql.ref('u.created_at'), type: 'timestamptz' }], id: sql.ref('u.id'), idType: 'uuid' },
};

/** Matches the expression of the trigram index `users_search`. */
const SEARCH_EXPR = sql`lower(u.first_name || ' ' || u.last_name || ' ' || u.username || ' ' || u.email || ' ' || coalesce(u.phone_number, ''))`;
const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listUsers(db: Db, filter: UserListFilter): Promise<Page<UserListRow>> {
  const keyset = SORTS[filter.sort];
  // The cursor names its list, sort and direction: a cursor of another order is refused.
  const tag = `users:${filter.sort}:${filter.dir}`;
  const after = decodeCursor(filter.cursor, keyset, tag);
  if (filter.organizationIds && filter.organizationIds.length === 0) return { items: [], nextCursor: null };
  let q = userRows(db).select(keysetSelections(keyset));
  if (filter.organizationIds) q = q.where('u.organization_id', 'in', filter.organizationIds);
  if (filter.roles) q = q.where('u.role', 'in', filter.roles);
  if (filter.role) q = q.where('u.role', '=', filter.role);
  if (filter.status) q = q.where('u.status', '=', filter.status);
  if (filter.search) q = q.where(sql<boolean>`${SEARCH_EXPR} like ${likePattern(filter.search)}`);
  if (after) q = q.where(keysetAfter(keyset, filter.dir, after));
  const rows = await orderByKeyset(q, keyset, filter.dir).limit(filter.limit + 1).execute();
  return toPage(rows, filter.limit, keyset, tag, toUserListRow);
}

function userRows(db: Db) {
  return db
    .selectFrom('users as u')
    .leftJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.username', 'u.email', 'u.phone_number', 'u.created_at', 'u.status', 'u.email_verified', 'u.role', 'u.organization_id', 'o.name as organization_name']);
}

type UserRowData = Awaited<ReturnType<ReturnType<typeof userRows>['executeTakeFirstOrThrow']>>;

function toUserListRow(r: UserRowData): UserListRow {
  return {
    userId: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    username: r.username,
    email: r.email,
    phoneNumber: r.phone_number ?? '',
    createdAt: r.created_at.toISOString(),
    status: r.status === 'deactivated' ? 'deactivated' : 'active',
    emailVerified: r.email_verified,
    role: r.role,
    organizationId: r.organization_id ?? '',
    organizationName: r.organization_name ?? '',
  };
}

/** One user as a list row (null when there is none). */
export async function getUserListRow(db: Db, userId: string): Promise<UserListRow | null> {
  const row = await userRows(db).where('u.id', '=', userId).executeTakeFirst();
  return row ? toUserListRow(row) : null;
}
