import { type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Where a tenancy's building stands, so the dashboard shows the subway stop nearest to it.
// Null when nobody has recorded it; the dashboard then uses New York City's point.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tenancies')
    .addColumn('building_latitude', 'double precision')
    .addColumn('building_longitude', 'double precision')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenancies').dropColumn('building_latitude').dropColumn('building_longitude').execute();
}
