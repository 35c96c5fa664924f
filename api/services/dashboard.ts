import type { ActionItem, DashboardData, DashboardFeeds, ProfileLockStatus } from '../../domain';
import type { Session } from '../session';
import * as recert from './recertification';
import type { RecertDeps } from './recertification-cycle';
import { householdFlags } from './household-flags';
import * as relocation from './relocation';
import { householdOf } from './users';

const RECERT_PATH = '/recertification';

/** Everything the resident has to do now, from the workflows' views and the lease-up read model. */
export async function actionItems(deps: RecertDeps, session: Session): Promise<ActionItem[]> {
  const household = await householdOf(deps.db, session.userId);
  if (!household) return [];
  const items: ActionItem[] = [];
  if (household.profile_completion < 100) items.push({ kind: 'profile', action: 'CompleteProfile', caseId: null, path: '/profile', dueAt: null });
  const recertification = await recert.status(deps, session);
  if (recertification) {
    for (const task of recertification.view.pendingTasks.filter((t) => t.role === 'tenant')) {
      items.push({ kind: 'recertification', action: task.action, caseId: recertification.caseId, path: RECERT_PATH, dueAt: task.dueAt });
    }
  }
  const reloc = await relocation.currentForUser(deps, session.userId);
  for (const task of reloc?.pendingTasks.filter((t) => t.role === 'tenant') ?? []) {
    items.push({ kind: 'relocation', action: task.action, caseId: reloc!.relocationId, path: '/relocation', dueAt: task.dueAt });
  }
  const applications = await deps.db
    .selectFrom('applications')
    .innerJoin('opportunities', 'opportunities.id', 'applications.opportunity_id')
    .select(['applications.id', 'applications.pending_tasks', 'opportunities.name'])
    .where('applications.household_id', '=', household.id)
    .execute();
  for (const application of applications) {
    for (const task of application.pending_tasks.filter((t) => t.role === 'applicant' && t.action !== 'Withdraw')) {
      // Named by its opportunity: a household may have applied to several.
      items.push({ kind: 'lease_up', action: task.action, caseId: application.id, path: `/myApplications/${application.id}`, dueAt: task.dueAt, name: application.name });
    }
  }
  return items;
}

/** Where the household's building stands, when its tenancy records it (the nearest subway stop). */
async function buildingPlace(deps: RecertDeps, householdId: string | undefined): Promise<{ lat: number; lon: number } | null> {
  if (!householdId) return null;
  const row = await deps.db.selectFrom('tenancies').select(['building_latitude', 'building_longitude']).where('household_id', '=', householdId).executeTakeFirst();
  return row?.building_latitude != null && row.building_longitude != null ? { lat: row.building_latitude, lon: row.building_longitude } : null;
}

/** The dashboard's feeds, read from memory: the hub fetches them on its own schedule. */
export interface FeedReader {
  dashboard(options: { point: { lat: number; lon: number } | null; building: { lat: number; lon: number } | null }): DashboardFeeds;
}

export async function dashboardData(deps: RecertDeps & { feeds: FeedReader }, session: Session, point: { lat: number; lon: number } | null = null): Promise<DashboardData> {
  const user = await deps.db.selectFrom('users').select(['first_name', 'last_name', 'role']).where('id', '=', session.userId).executeTakeFirstOrThrow();
  const household = await householdOf(deps.db, session.userId);
  const [recertificationStatus, items, reloc, building] = await Promise.all([
    recert.status(deps, session),
    actionItems(deps, session),
    relocation.currentForUser(deps, session.userId),
    buildingPlace(deps, household?.id),
  ]);
  const current = reloc;
  return {
    welcome: { firstName: user.first_name, lastName: user.last_name, role: user.role },
    about: { key: 'about' },
    announcement: recertificationStatus && recertificationStatus.status !== 'completed'
      ? { key: 'recertificationOpen', publishedAt: recertificationStatus.view.startedAt }
      : null,
    howToVideo: { titleKey: 'howToVideo', url: '/play-video' },
    actionNeeded: items,
    recertificationStatus,
    relocation: current ? { relocationId: current.relocationId, status: current.status, endsAt: current.endsAt, underRelocation: current.underRelocation } : null,
    profileCompletion: household?.profile_completion ?? 0,
    feeds: deps.feeds.dashboard({ point, building }),
  };
}

/** Spec section 3 "Profile lock status". */
export async function profileLockStatus(deps: RecertDeps, session: Session): Promise<ProfileLockStatus> {
  const row = await deps.db
    .selectFrom('users as u')
    .leftJoin('organizations as o', 'o.id', 'u.organization_id')
    .leftJoin('households as h', 'h.head_user_id', 'u.id')
    .select(['h.id as household_id', 'h.household_size', 'h.organization_id as household_org', 'o.email', 'o.phone'])
    .where('u.id', '=', session.userId)
    .executeTakeFirstOrThrow();
  const flags = await householdFlags(deps.db, row.household_id);
  let org = { email: row.email, phone: row.phone };
  if (!org.email && row.household_org) {
    const o = await deps.db.selectFrom('organizations').select(['email', 'phone']).where('id', '=', row.household_org).executeTakeFirst();
    if (o) org = o;
  }
  return {
    isProfileLocked: flags.isProfileLocked,
    isRecertificationExpired: flags.isRecertificationExpired,
    isTenantSigned: flags.isTenantSigned,
    organizationEmail: org.email ?? '',
    organizationPhone: org.phone ?? '',
    householdSize: row.household_size ?? 0,
  };
}
