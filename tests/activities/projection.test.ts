import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { LeaseUpView } from '../../domain';
import { issueLogNumber } from '../../activities/lease-up';
import { projectApplication } from '../../infra/db/repositories/lease-up-projection';
import { projectCaseTasks } from '../../infra/db/repositories/case-tasks';
import { listManagerTasks } from '../../api/services/manager-task-list';
import type { ManagerTaskFilter } from '../../domain';
import { initialLeaseUpState, leaseUpView } from '../../domain';
import { seedDemoData } from '../../infra/seed';
import { createTestDatabase } from '../helpers/stack';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';
import { createKeyRing } from '../../infra/crypto';
import { hasDataKeys, useDataKeys } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';

describe('lease-up projection activity (real PostgreSQL)', () => {
  let db: Db;
  let base: LeaseUpView;

  beforeAll(async () => {
    // The projection seals the declared income, as the worker does with its keys.
    if (!hasDataKeys()) useDataKeys(createKeyRing(HISTORY_FIXTURE_KEY));
    ({ db } = await createTestDatabase());
    await seedDemoData(db);
    const household = await db.selectFrom('households').selectAll().executeTakeFirstOrThrow();
    const opportunity = await db.selectFrom('opportunities').selectAll().executeTakeFirstOrThrow();
    const state = initialLeaseUpState(
      {
        applicationId: randomUUID(),
        householdId: household.id,
        opportunityId: opportunity.id,
        organizationId: opportunity.organization_id,
        applicantUserId: household.head_user_id,
        householdSize: 2,
        householdIncome: 48_000,
      },
      '2026-11-01T10:00:00.000Z',
    );
    base = leaseUpView(state, Date.parse(state.updatedAt));
  });
  afterAll(() => db?.destroy());

  const rowOf = (id: string) => db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('running the same projection twice changes nothing', async () => {
    expect(await projectApplication(db, base)).toEqual({ written: true });
    const first = await rowOf(base.applicationId);
    expect(await projectApplication(db, base)).toEqual({ written: false });
    const second = await rowOf(base.applicationId);
    expect(second).toEqual(first);
  });

  it('a late, older projection never overwrites newer state', async () => {
    const newer: LeaseUpView = { ...base, version: base.version + 2, currentStep: 'decision', updatedAt: '2026-11-02T10:00:00.000Z' };
    const older: LeaseUpView = { ...base, version: base.version + 1, currentStep: 'screening_consent', updatedAt: '2026-11-01T12:00:00.000Z' };
    expect((await projectApplication(db, newer)).written).toBe(true);
    expect((await projectApplication(db, older)).written).toBe(false);
    const row = await rowOf(base.applicationId);
    expect(row.current_step).toBe('decision');
    expect(row.state_version).toBe(newer.version);
  });

  it('projections of one case racing each other leave the newest row and only its tasks', async () => {
    const org = await db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    for (let round = 0; round < 5; round++) {
      // A household of its own (one application per household per opportunity).
      const user = await db
        .insertInto('users')
        .values({ username: `race-${round}-${randomUUID()}`, email: `race-${randomUUID()}@example.test`, first_name: 'Race', last_name: `${round}`, role: 'User', password_hash: '!' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const household = await db.insertInto('households').values({ head_user_id: user.id }).returning('id').executeTakeFirstOrThrow();
      const caseView: LeaseUpView = { ...base, applicationId: randomUUID(), householdId: household.id, applicantUserId: user.id, organizationId: org.id };
      // Versions 1 to 8 at once, each with its own open task, in a shuffled order.
      const actions = ['MarkAsComplete', 'RequestConsentForScreening', 'RejectApplication', 'RejectDocuments', 'RequestAdditionalDocuments', 'ProceedToAppointmentScheduling', 'OfferUnit', 'GenerateIncomeCertification'] as const;
      const versions = [1, 2, 3, 4, 5, 6, 7, 8].sort(() => Math.random() - 0.5);
      await Promise.all(
        versions.map((v) =>
          projectApplication(db, { ...caseView, version: v, currentStep: 'documentation_review', pendingTasks: [{ role: 'manager', action: actions[v - 1]!, dueAt: null }] }),
        ),
      );
      const row = await rowOf(caseView.applicationId);
      expect(row.state_version).toBe(8);
      const tasks = await db.selectFrom('manager_tasks').select(['action', 'case_version']).where('case_id', '=', caseView.applicationId).execute();
      expect(tasks).toEqual([{ action: 'GenerateIncomeCertification', case_version: 8 }]);
    }
  });

  it('issues one log number per application, the same one when asked again', async () => {
    const id = randomUUID();
    const first = await issueLogNumber(db, id);
    expect(first).toMatch(/^LU-\d{6}$/);
    expect(await issueLogNumber(db, id)).toBe(first);
    expect(await issueLogNumber(db, randomUUID())).not.toBe(first);
  });
});

describe('manager inbox projection', () => {
  it('replaces a case’s open tasks, ignores older versions, and lists them for the organisation', async () => {
    const { db } = await createTestDatabase();
    await seedDemoData(db);
    const household = await db.selectFrom('households').selectAll().executeTakeFirstOrThrow();
    const org = await db.selectFrom('organizations').selectAll().executeTakeFirstOrThrow();
    const caseId = randomUUID();
    const base = { caseKind: 'recertification' as const, caseId, organizationId: org.id, householdId: household.id, contextId: null, contextName: 'Building A' };

    expect(await projectCaseTasks(db, { ...base, step: 'under_review', version: 2, tasks: [{ action: 'GenerateTIC', dueAt: '2026-12-01T00:00:00.000Z' }, { action: 'ReturnForChanges', dueAt: null }] })).toEqual({ written: true });
    expect(await projectCaseTasks(db, { ...base, step: 'under_review', version: 2, tasks: [{ action: 'GenerateTIC', dueAt: '2026-12-01T00:00:00.000Z' }, { action: 'ReturnForChanges', dueAt: null }] })).toEqual({ written: false });
    expect(await projectCaseTasks(db, { ...base, step: 'profile', version: 1, tasks: [{ action: 'Old', dueAt: null }] })).toEqual({ written: false });
    const inbox = async (organizationId: string, filter: ManagerTaskFilter = {}) => (await listManagerTasks(db, organizationId, { limit: 100, ...filter })).items;
    let rows = await inbox(org.id);
    expect(rows.map((r) => r.action)).toEqual(['GenerateTIC', 'ReturnForChanges']);
    expect(rows[0]).toMatchObject({ caseKind: 'recertification', caseId, step: 'under_review', contextName: 'Building A', dueAt: '2026-12-01T00:00:00.000Z' });
    expect(await inbox(org.id, { dueBefore: '2026-11-30' })).toEqual([]);

    // A task still open in a newer version keeps its row (the inbox order does not move under it);
    // one no longer listed goes, a new one comes, and each row carries the new step and due date.
    const kept = rows[0]!.taskId;
    await projectCaseTasks(db, { ...base, step: 'signing', version: 3, tasks: [{ action: 'GenerateTIC', dueAt: '2026-12-02T00:00:00.000Z' }, { action: 'Approve', dueAt: null }] });
    rows = await inbox(org.id);
    expect(rows.map((r) => [r.action, r.step, r.dueAt])).toEqual([
      ['GenerateTIC', 'signing', '2026-12-02T00:00:00.000Z'],
      ['Approve', 'signing', null],
    ]);
    expect(rows[0]!.taskId).toBe(kept);

    // A newer version with no open task empties the case; an older one cannot bring tasks back.
    await projectCaseTasks(db, { ...base, step: 'completed', version: 4, tasks: [] });
    await projectCaseTasks(db, { ...base, step: 'under_review', version: 3, tasks: [{ action: 'GenerateTIC', dueAt: null }] });
    rows = await inbox(org.id);
    expect(rows).toEqual([]);
    expect(await inbox(randomUUID())).toEqual([]);
    await db.destroy();
  });
});
