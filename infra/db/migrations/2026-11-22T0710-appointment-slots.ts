import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  // One booking per appointment time per opportunity: the primary key makes a second booking of the
  // same slot fail, also when two applicants choose it at the same moment.
  await db.schema
    .createTable('appointment_bookings')
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id').onDelete('cascade'))
    .addColumn('slot', 'timestamptz', (c) => c.notNull())
    .addColumn('application_id', 'uuid', (c) => c.notNull())
    .addColumn('booked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('appointment_bookings_pk', ['opportunity_id', 'slot'])
    .execute();
  await db.schema.createIndex('appointment_bookings_application').on('appointment_bookings').column('application_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('appointment_bookings').execute();
}
