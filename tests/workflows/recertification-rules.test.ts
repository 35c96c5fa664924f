import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { incomeBandOf, type RecertView } from '../../domain';
import { nextAnniversary } from '../../infra/db/repositories/recertification-cycle';
import { projectRecertification } from '../../infra/db/repositories/recertification-projection';
import { seedDemoData } from '../../infra/seed';
import type { Db } from '../../infra/db/database';
import { createTestDatabase } from '../helpers/stack';

describe('income bands (configurable AMI table, shared/design/workflows.md)', () => {
  it('puts each income in its band by percent of the 100% AMI, boundaries included', () => {
    const ami = 100_000;
    expect(incomeBandOf(30_000, ami)).toMatchObject({ band: 'extremely_low', amiPercent: 30 });
    expect(incomeBandOf(30_001, ami)).toMatchObject({ band: 'very_low', amiPercent: 31 });
    expect(incomeBandOf(50_000, ami).band).toBe('very_low');
    expect(incomeBandOf(80_000, ami).band).toBe('low');
    expect(incomeBandOf(120_000, ami).band).toBe('moderate');
    expect(incomeBandOf(165_000, ami).band).toBe('middle');
    expect(incomeBandOf(165_001, ami).band).toBe('above_middle');
    expect(incomeBandOf(0, ami)).toMatchObject({ band: 'extremely_low', amiPercent: 0 });
  });
});

describe('lease anniversaries', () => {
  it('is the next anniversary on or after today, never the lease start itself; 29 February falls on 28 February', () => {
    expect(nextAnniversary('2024-03-15', '2026-01-10')).toBe('2026-03-15');
    expect(nextAnniversary('2024-03-15', '2026-03-15')).toBe('2026-03-15');
    expect(nextAnniversary('2024-03-15', '2026-03-16')).toBe('2027-03-15');
    expect(nextAnniversary('2024-02-29', '2026-01-01')).toBe('2026-02-28');
    expect(nextAnniversary('2026-05-01', '2026-05-01')).toBe('2027-05-01');
  });
});

describe('recertification projection', () => {
  let db: Db;
  beforeAll(async () => {
    ({ db } = await createTestDatabase());
    await seedDemoData(db);
  });
  afterAll(() => db?.destroy());

  it('is idempotent and version-guarded in the read model and the manager inbox', async () => {
    const household = await db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select(['h.id', 'h.head_user_id', 'h.organization_id']).where('u.username', '=', 'tenant').executeTakeFirstOrThrow();
    const view = (version: number, stage: RecertView['stage'], tasks: RecertView['pendingTasks']): RecertView => ({
      caseId, householdId: household.id, organizationId: household.organization_id!, tenantUserId: household.head_user_id, kind: 'annual', deadline: '2027-01-01',
      startedAt: '2026-09-03T00:00:00.000Z', stage, status: 'active', profileLocked: stage !== 'action_needed', ticGenerated: false, ticKey: null, signers: [],
      returnReasons: [], notices: [], history: [], pendingTasks: tasks, availableActions: { tenant: [], manager: [] }, approvedAt: null,
      updatedAt: `2026-09-0${version}T00:00:00.000Z`, version,
    });
    const caseId = randomUUID();
    const review = view(3, 'under_manager_review', [{ role: 'manager', action: 'GenerateTIC', dueAt: '2027-01-01T00:00:00.000Z' }]);
    expect(await projectRecertification(db, review)).toEqual({ written: true });
    expect(await projectRecertification(db, review)).toEqual({ written: false });
    // A late retry of an older version changes nothing.
    expect(await projectRecertification(db, view(2, 'profile_complete', []))).toEqual({ written: false });
    const row = await db.selectFrom('recertification_cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ stage: 'under_manager_review', state_version: 3 });
    const tasks = await db.selectFrom('manager_tasks').select(['action', 'case_version']).where('case_id', '=', caseId).execute();
    expect(tasks).toEqual([{ action: 'GenerateTIC', case_version: 3 }]);
  });
});
