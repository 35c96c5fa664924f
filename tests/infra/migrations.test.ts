import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateDown, migrateToLatest } from '../../infra/db/migrate';
import { migrations } from '../../infra/db/migrations';
import { createTestDatabase } from '../helpers/stack';

describe('migrations', async () => {
  const { db } = await createTestDatabase();
  afterAll(() => db.destroy());

  const tables = async () =>
    (await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely_%'`.execute(db)).rows
      .map((r) => r.tablename)
      .sort();

  it('go down and up again, and applying twice is a no-op', async () => {
    const before = await tables();
    expect(before).toContain('applications');
    for (let i = 0; i < Object.keys(migrations).length; i++) await migrateDown(db);
    expect(await tables()).toEqual([]);
    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
    expect(await tables()).toEqual(before);
    expect(await migrateToLatest(db)).toEqual([]);
  });
});
