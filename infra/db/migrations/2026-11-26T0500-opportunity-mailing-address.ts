import { type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Each opportunity says where to mail a paper application (spec section 2: apply
// online or by mail). Empty when the manager has not given one; the public page then says so.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('opportunities').addColumn('mailing_address', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('opportunities').dropColumn('mailing_address').execute();
}
