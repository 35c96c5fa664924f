import { sql } from 'kysely';
import type { ImpersonationAuditEntry, Page } from '../../domain';
import type { Db } from '../../infra/db/database';
import { decodeCursor, keysetAfter, orderByKeyset, keysetSelections, toPage, type Keyset } from './cursor';

const newestFirst: Keyset = { keys: [], id: sql.ref('a.id'), idType: 'bigint' };

/**
 * Everything done while someone acted for a user (who, for whom, what, when), newest first: the
 * household's own list (acting user = the household) and the admin's (any user, or everyone).
 */
export async function listImpersonationAudit(
  db: Db,
  filter: { actingUserId?: string; realUserId?: string },
  query: { cursor?: string; limit: number },
): Promise<Page<ImpersonationAuditEntry>> {
  const tag = `audit:${filter.actingUserId ?? ''}:${filter.realUserId ?? ''}`;
  const after = decodeCursor(query.cursor, newestFirst, tag);
  let q = db
    .selectFrom('impersonation_audit as a')
    .leftJoin('users as real', 'real.id', 'a.real_user_id')
    .leftJoin('users as acting', 'acting.id', 'a.acting_user_id')
    .select([
      'a.id',
      'a.created_at',
      'a.event',
      'a.method',
      'a.path',
      'a.status_code',
      'a.real_user_id',
      'a.acting_user_id',
      'real.first_name as real_first',
      'real.last_name as real_last',
      'real.role as real_role',
      'acting.first_name as acting_first',
      'acting.last_name as acting_last',
      ...keysetSelections(newestFirst),
    ]);
  if (filter.actingUserId) q = q.where('a.acting_user_id', '=', filter.actingUserId);
  if (filter.realUserId) q = q.where('a.real_user_id', '=', filter.realUserId);
  if (after) q = q.where(keysetAfter(newestFirst, 'desc', after));
  const rows = await orderByKeyset(q, newestFirst, 'desc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, newestFirst, tag, (r) => ({
    id: String(r.id),
    at: r.created_at.toISOString(),
    event: r.event,
    method: r.method,
    path: r.path,
    statusCode: r.status_code,
    realUserId: r.real_user_id,
    realUserName: `${r.real_first ?? ''} ${r.real_last ?? ''}`.trim(),
    realUserRole: r.real_role ?? null,
    actingUserId: r.acting_user_id,
    actingUserName: `${r.acting_first ?? ''} ${r.acting_last ?? ''}`.trim(),
  }));
}
