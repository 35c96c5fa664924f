import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { addApplications, addDocuments, addManagerTasks } from '../helpers/bulk-rows';

/**
 * The manager's applications and task inbox page by cursor, and paging through 1,000
 * rows while others are being added misses none of those present at the start and repeats none.
 */
describe('manager lists page by cursor', () => {
  let stack: Stack;
  let manager: { authorization: string };
  let organizationId: string;
  let opportunityIds: string[];
  let householdId: string;
  const FROM = new Date('2026-03-01T00:00:00Z');
  const MINUTE = 60_000;

  beforeAll(async () => {
    stack = await startStack();
    manager = await signIn(stack.app, 'Manager');
    const row = await stack.db.selectFrom('users').select('organization_id').where('username', '=', 'manager').executeTakeFirstOrThrow();
    organizationId = row.organization_id!;
    opportunityIds = (await stack.db.selectFrom('opportunities').select('id').where('organization_id', '=', organizationId).execute()).map((o) => o.id);
    householdId = (await stack.db.selectFrom('households').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => stack?.close());

  const get = (url: string) => stack.app.inject({ url, headers: manager });

  /** Every page of a list, adding rows (`add`) while each page is being read. */
  async function pageAll<T>(path: string, limit: number, add: () => Promise<unknown>): Promise<T[]> {
    const seen: T[] = [];
    let cursor: string | null = null;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(200);
      const url = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const [response] = await Promise.all([get(url), add()]);
      expect(response.statusCode, response.body).toBe(200);
      const { items, nextCursor } = response.json().data as { items: T[]; nextCursor: string | null };
      expect(items.length).toBeLessThanOrEqual(limit);
      seen.push(...items);
      if (!nextCursor) return seen;
      cursor = nextCursor;
    }
  }

  const randomMinute = (range: number) => new Date(FROM.getTime() + Math.floor(Math.random() * range) * MINUTE);

  it('pages through 1,000 applications while applications arrive: none missed, none repeated, newest first', async () => {
    // Two per timestamp, so a page often ends inside a tie; new rows land on the same timestamps.
    await addApplications(stack.db, { organizationId, opportunityIds, count: 1_000, from: FROM, stepMs: MINUTE, perTimestamp: 2 });
    const atStart = (await stack.db.selectFrom('applications').select('id').where('organization_id', '=', organizationId).execute()).map((r) => r.id);
    expect(atStart.length).toBeGreaterThanOrEqual(1_000);

    let added = 0;
    const rows = await pageAll<{ applicationId: string; dateApplied: string }>('/api/LeaseUpApplication/getApplications', 45, async () => {
      added += 6;
      await addApplications(stack.db, { organizationId, opportunityIds, count: 6, from: randomMinute(500), stepMs: MINUTE });
    });
    const ids = rows.map((r) => r.applicationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(atStart.filter((id) => !ids.includes(id))).toEqual([]);
    expect(added).toBeGreaterThan(100);
    const dates = rows.map((r) => r.dateApplied);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('one opportunity’s applications page on their own', async () => {
    const opportunityId = opportunityIds[0]!;
    const atStart = (await stack.db.selectFrom('applications').select('id').where('opportunity_id', '=', opportunityId).execute()).map((r) => r.id);
    const rows = await pageAll<{ applicationId: string; opportunityId: string }>(`/api/LeaseUpApplication/getApplications?opportunityId=${opportunityId}`, 100, async () => {});
    expect(rows.every((r) => r.opportunityId === opportunityId)).toBe(true);
    expect(rows.map((r) => r.applicationId).sort()).toEqual(atStart.sort());
  });

  it('pages through 1,000 inbox tasks while tasks arrive: none missed, none repeated, overdue then soonest due', async () => {
    // The rows added here (a running case's own tasks are replaced, with new ids, whenever it moves).
    const atStart = await addManagerTasks(stack.db, { organizationId, householdId, contextIds: opportunityIds, count: 1_000, from: FROM, stepMs: 1_000 });

    let added = 0;
    const rows = await pageAll<{ taskId: string; overdue: boolean; dueAt: string | null }>('/api/ManagerTasks', 40, async () => {
      added += 8;
      await addManagerTasks(stack.db, { organizationId, householdId, contextIds: opportunityIds, count: 8, from: new Date(FROM.getTime() + Math.floor(Math.random() * 500) * 1_000), stepMs: 1_000 });
    });
    const ids = rows.map((r) => r.taskId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(atStart.filter((id) => !ids.includes(id))).toEqual([]);
    expect(added).toBeGreaterThan(100);
    // Overdue first; within each, due dates ascending with the undated last.
    const order = rows.map((r) => `${r.overdue ? 0 : 1}:${r.dueAt ?? '9999'}`);
    expect(order).toEqual([...order].sort());
  });

  it('filters page too: the inbox of one case kind', async () => {
    const rows = await pageAll<{ caseKind: string }>('/api/ManagerTasks?caseKind=relocation', 100, async () => {});
    expect(rows.length).toBeGreaterThan(300);
    expect(rows.every((r) => r.caseKind === 'relocation')).toBe(true);
  });

  it('pages through a household’s 300 documents (the manager names the household) while files arrive', async () => {
    const household = await stack.db
      .selectFrom('households')
      .innerJoin('users', 'users.id', 'households.head_user_id')
      .select(['households.id', 'households.head_user_id'])
      .where('users.username', '=', 'tenant')
      .executeTakeFirstOrThrow();
    expect((await stack.db.selectFrom('households').select('organization_id').where('id', '=', household.id).executeTakeFirstOrThrow()).organization_id).toBe(organizationId);
    await addDocuments(stack.db, { householdId: household.id, uploadedBy: household.head_user_id, count: 300, from: FROM, stepMs: MINUTE, perTimestamp: 3 });
    const atStart = (await stack.db.selectFrom('household_documents').select('id').where('household_id', '=', household.id).execute()).map((r) => r.id);
    const rows = await pageAll<{ id: string }>(`/api/Document?householdId=${household.id}`, 40, () =>
      addDocuments(stack.db, { householdId: household.id, uploadedBy: household.head_user_id, count: 3, from: randomMinute(100), stepMs: MINUTE }),
    );
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(atStart.filter((id) => !ids.includes(id))).toEqual([]);
    expect((await get(`/api/Document?householdId=${household.id}&cursor=${Buffer.from(JSON.stringify(['documents:uploaded:desc', 'x', 'y'])).toString('base64url')}`)).statusCode).toBe(400);
    expect((await get(`/api/Document?householdId=${household.id}&limit=500`)).statusCode).toBe(400);
  });

  describe('a bad cursor or limit is a 400 in the envelope, never a 500', () => {
    const token = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    const bad: [string, string][] = [
      ['limit 0', 'limit=0'],
      ['limit over 100', 'limit=101'],
      ['limit not a number', 'limit=ten'],
      ['cursor not base64 JSON', 'cursor=%21%21%21'],
      ['cursor of another list', `cursor=${token(['users:name:asc', 'a', '00000000-0000-4000-8000-000000000000'])}`],
      ['cursor too long', `cursor=${'a'.repeat(700)}`],
    ];
    for (const [path, tag, values] of [
      ['/api/LeaseUpApplication/getApplications', 'applications:applied:desc', [['not a time', '00000000-0000-4000-8000-000000000000'], ['2026-02-30 10:00:00+00', '00000000-0000-4000-8000-000000000000'], ['2026-01-01 10:00:00+00', 'not-a-uuid']]],
      ['/api/ManagerTasks', 'manager-tasks:inbox:asc', [['maybe', 'infinity', '2026-01-01 10:00:00+00', '00000000-0000-4000-8000-000000000000'], ['true', 'soon', '2026-01-01 10:00:00+00', '00000000-0000-4000-8000-000000000000']]],
    ] as const) {
      const cases = [...bad, ...values.map((v, i): [string, string] => [`forged cursor ${i + 1}`, `cursor=${token([tag, ...v])}`])];
      for (const [name, query] of cases) {
        it(`${path}: ${name}`, async () => {
          const response = await get(`${path}?${query}`);
          expect(response.statusCode, response.body).toBe(400);
          // A cursor that fits the schema but was not made by this list is refused on its merits.
          const code = name.startsWith('limit') || name === 'cursor too long' ? 'validation' : 'invalidCursor';
          expect(response.json()).toMatchObject({ status: 400, message: expect.any(String), data: { code } });
        });
      }
    }
  });
});
