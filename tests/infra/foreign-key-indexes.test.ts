import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';
import { createTestDatabase } from '../helpers/stack';

/**
 * Every foreign key has an index that starts with its columns: without one, deleting or
 * updating a referenced row reads the whole referencing table (deleting users took minutes).
 */
async function unindexedForeignKeys(db: Db): Promise<string[]> {
  const missing = await sql<{ table_name: string; constraint_name: string; columns: string }>`
    select c.conrelid::regclass::text as table_name, c.conname as constraint_name,
           (select string_agg(a.attname, ', ' order by k.ord)
              from unnest(c.conkey) with ordinality as k(attnum, ord)
              join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum) as columns
      from pg_constraint c
     where c.contype = 'f'
       and c.connamespace = 'public'::regnamespace
       and not exists (
         select 1 from pg_index i
          where i.indrelid = c.conrelid
            -- a partial index serves the key only when it leaves out just the rows whose key is null
            and (i.indpred is null
                 or (cardinality(c.conkey) = 1
                     and pg_get_expr(i.indpred, i.indrelid) = format('(%I IS NOT NULL)', (select a.attname from pg_attribute a where a.attrelid = c.conrelid and a.attnum = c.conkey[1]))))
            -- the index's first n columns are exactly the key's n columns, in any order
            and (string_to_array(i.indkey::text, ' ')::int2[])[1:cardinality(c.conkey)] @> c.conkey
            and (string_to_array(i.indkey::text, ' ')::int2[])[1:cardinality(c.conkey)] <@ c.conkey
       )
     order by 1, 2`.execute(db);
  return missing.rows.map((r) => `${r.table_name}(${r.columns}) ${r.constraint_name}`);
}

describe('foreign key indexes', async () => {
  const { db } = await createTestDatabase();
  afterAll(() => db.destroy());

  it('every foreign key column set leads an index of its table (partial only when it leaves out null keys)', async () => {
    expect(await unindexedForeignKeys(db)).toEqual([]);
  });

  it('the check finds a key without an index, and accepts only an index that serves it', async () => {
    await sql`create table fk_probe (id uuid primary key, user_id uuid references users(id), kind text)`.execute(db);
    expect(await unindexedForeignKeys(db)).toEqual(['fk_probe(user_id) fk_probe_user_id_fkey']);
    await sql`create index fk_probe_kind_user on fk_probe (kind, user_id)`.execute(db);
    await sql`create index fk_probe_some on fk_probe (user_id) where kind = 'x'`.execute(db);
    expect(await unindexedForeignKeys(db)).toEqual(['fk_probe(user_id) fk_probe_user_id_fkey']);
    await sql`create index fk_probe_user on fk_probe (user_id) where user_id is not null`.execute(db);
    expect(await unindexedForeignKeys(db)).toEqual([]);
    await sql`drop table fk_probe`.execute(db);
  });
});
