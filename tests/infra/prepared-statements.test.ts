import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, prepared } from '../../infra/db/database';
import { createTestDatabase } from '../helpers/stack';

/**
 * A statement marked `prepared` is sent as a named prepared statement (planned once per
 * connection, its name from its text), answers as the same statement sent unnamed, and is sent
 * unnamed when PG_PREPARED_STATEMENTS is false (PgBouncer in transaction mode without support for them).
 */
describe('prepared statements', async () => {
  const { db: owner, url } = await createTestDatabase();
  // One connection each, so the session that prepared is the one asked what it holds.
  const named = createDb({ DATABASE_URL: url, PG_POOL_MAX: 1, PG_STATEMENT_TIMEOUT_MS: 15_000, PG_SSL: false });
  const unnamed = createDb({ DATABASE_URL: url, PG_POOL_MAX: 1, PG_STATEMENT_TIMEOUT_MS: 15_000, PG_SSL: false, PG_PREPARED_STATEMENTS: false });
  afterAll(async () => {
    await named.destroy();
    await unnamed.destroy();
    await owner.destroy();
  });

  const square = (n: number) => prepared(sql<{ square: number }>`select ${n}::int * ${n}::int as square`);
  const held = async (db: typeof named) =>
    (await sql<{ name: string }>`select name from pg_prepared_statements where statement like '/* prepared */%'`.execute(db)).rows.map((r) => r.name);

  it('prepares a marked statement once per connection and reuses it with other values', async () => {
    expect((await square(3).execute(named)).rows).toEqual([{ square: 9 }]);
    expect((await square(4).execute(named)).rows).toEqual([{ square: 16 }]);
    const names = await held(named);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^portal_[0-9a-f]{24}$/);
    // Another text is another statement, under another name.
    await prepared(sql`select ${1}::int + ${2}::int as sum`).execute(named);
    expect(new Set(await held(named)).size).toBe(2);
  });

  it('leaves unmarked statements unnamed, and every statement when turned off', async () => {
    await sql`select ${5}::int as five`.execute(unnamed);
    expect((await square(5).execute(unnamed)).rows).toEqual([{ square: 25 }]);
    expect(await held(unnamed)).toEqual([]);
  });
});
