import { sql } from 'kysely';
import type { ApplicationListQuery, ApplicationRow, Page } from '../../domain';
import type { Db } from '../../infra/db/database';
import { declaredIncomeOf } from '../../infra/db/repositories/declared-income';
import type { Session } from '../session';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';
import { householdOf, organizationOf } from './users';

/**
 * `getApplications`: newest first, then by id, so applications applied in the same microsecond
 * keep one order. Served by the indexes `applications_org_applied`, `applications_org_opportunity_applied`
 * and `applications_household_applied` (migration 2026-11-24T0100).
 */
const NEWEST: Keyset = { keys: [{ expr: sql.ref('a.applied_at'), type: 'timestamptz' }], id: sql.ref('a.id'), idType: 'uuid' };
const TAG = 'applications:applied:desc';

/** Whose applications the caller sees: a manager's organisation's, or a resident's household's. */
export type ApplicationScope = { organizationId: string } | { householdId: string };

export async function scopeOf(db: Db, session: Session): Promise<ApplicationScope | null> {
  if (session.role === 'Manager') {
    const organizationId = await organizationOf(db, session.userId);
    return organizationId ? { organizationId } : null;
  }
  const household = await householdOf(db, session.userId);
  return household ? { householdId: household.id } : null;
}

/** The page's query (also read by the EXPLAIN test, so the plan checked is the one served). */
export function applicationPageQuery(db: Db, scope: ApplicationScope, query: ApplicationListQuery) {
  const after = decodeCursor(query.cursor, NEWEST, TAG);
  let q = db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .innerJoin('users as u', 'u.id', 'a.applicant_user_id')
    .select([
      'a.id',
      'a.log_number',
      'a.opportunity_id',
      'o.name as opportunity_name',
      'u.first_name',
      'u.last_name',
      'a.household_size',
      'a.household_income',
      'a.household_income_encrypted',
      'a.applied_at',
      'a.status',
      'a.current_step',
      'a.pending_tasks',
      'a.lottery_rank',
    ])
    .select(keysetSelections(NEWEST));
  q = 'organizationId' in scope ? q.where('a.organization_id', '=', scope.organizationId) : q.where('a.household_id', '=', scope.householdId);
  if (query.opportunityId) q = q.where('a.opportunity_id', '=', query.opportunityId);
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('a.log_number', 'ilike', pattern), eb('o.name', 'ilike', pattern)]));
  }
  if (after) q = q.where(keysetAfter(NEWEST, 'desc', after));
  return orderByKeyset(q, NEWEST, 'desc').limit(query.limit + 1);
}

/** One page of the caller's applications (read model) and the next page's cursor. */
export async function listApplications(db: Db, session: Session, query: ApplicationListQuery): Promise<Page<ApplicationRow>> {
  // A bad cursor is refused before anything is read, also for a caller with nothing to list.
  decodeCursor(query.cursor, NEWEST, TAG);
  const scope = await scopeOf(db, session);
  if (!scope) return { items: [], nextCursor: null };
  const rows = await applicationPageQuery(db, scope, query).execute();
  return toPage(rows, query.limit, NEWEST, TAG, (r) => ({
    applicationId: r.id,
    logNumber: r.log_number,
    opportunityId: r.opportunity_id,
    opportunityName: r.opportunity_name,
    applicantFullName: `${r.first_name} ${r.last_name}`,
    totalHouseholdSize: r.household_size,
    // Sealed at rest: opened for the page's rows only (no filter or sort uses it).
    totalHouseholdIncome: declaredIncomeOf(r),
    dateApplied: new Date(r.applied_at).toISOString(),
    status: r.status,
    currentStep: r.current_step,
    pendingTasks: r.pending_tasks,
    lotteryRank: r.lottery_rank,
  }));
}
