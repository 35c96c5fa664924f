import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase } from '../helpers/stack';

/**
 * Every foreign key has an index that starts with its columns (issue 11): without one, deleting or
 * updating a referenced row reads the whole referencing table (deleting users took minutes).
 */
describe('foreign key indexes', async () => {
  const { db } = await createTestDatabase();
  afterAll(() => db.destroy());

  it('every foreign key column set leads some (non-partial) index of its table', async () => {
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
              and i.indpred is null
              -- the index's first n columns are exactly the key's n columns, in any order
              and (string_to_array(i.indkey::text, ' ')::int2[])[1:cardinality(c.conkey)] @> c.conkey
              and (string_to_array(i.indkey::text, ' ')::int2[])[1:cardinality(c.conkey)] <@ c.conkey
         )
       order by 1, 2`.execute(db);
    expect(missing.rows.map((r) => `${r.table_name}(${r.columns}) ${r.constraint_name}`)).toEqual([]);
  });
});
