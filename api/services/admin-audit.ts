import { sql } from 'kysely';
import type { AdminAuditEntry, AdminUserAction, Page } from '../../domain';
import type { Db } from '../../infra/db/database';
import { decodeCursor, keysetAfter, orderByKeyset, keysetSelections, toPage, type Keyset } from './cursor';

/** Records one change an admin made to a user: every change to an account is audited. */
export async function recordAdminChange(db: Db, actorId: string, userId: string, action: AdminUserAction, detail: Record<string, string | null> = {}): Promise<void> {
  await db.insertInto('user_admin_audit').values({ actor_user_id: actorId, user_id: userId, action, detail: JSON.stringify(detail) }).execute();
}

const newestFirst: Keyset = { keys: [], id: sql.ref('a.id'), idType: 'bigint' };

/** The changes made to one user, newest first. */
export async function listAdminChanges(db: Db, userId: string, query: { cursor?: string; limit: number }): Promise<Page<AdminAuditEntry>> {
  const tag = `admin-audit:${userId}`;
  const after = decodeCursor(query.cursor, newestFirst, tag);
  let q = db
    .selectFrom('user_admin_audit as a')
    .leftJoin('users as actor', 'actor.id', 'a.actor_user_id')
    .select(['a.id', 'a.action', 'a.actor_user_id', 'a.detail', 'a.created_at', 'actor.first_name', 'actor.last_name', ...keysetSelections(newestFirst)])
    .where('a.user_id', '=', userId);
  if (after) q = q.where(keysetAfter(newestFirst, 'desc', after));
  const rows = await orderByKeyset(q, newestFirst, 'desc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, newestFirst, tag, (r) => ({
    id: String(r.id),
    at: r.created_at.toISOString(),
    action: r.action,
    actorUserId: r.actor_user_id,
    actorName: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
    detail: r.detail,
  }));
}
