import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// The unit-offer dialog lists the opportunity's units no other active application holds,
// and OfferUnit refuses a held unit: both look applications up by the unit they hold.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index applications_held_unit on applications (held_unit_id, status) where held_unit_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('applications_held_unit').execute();
}
