import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/**
 * The notification redirect log (spec section 7, POST /api/redirect/redirectToDestination): one row
 * per click on a link of an email or text message. Only the path is kept (never the query string,
 * which may hold a link token).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_clicks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('notification_id', 'uuid', (c) => c.notNull().references('notification_outbox.id').onDelete('cascade'))
    .addColumn('destination_path', 'text', (c) => c.notNull())
    .addColumn('clicked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('notification_clicks_notification').on('notification_clicks').columns(['notification_id', 'clicked_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_clicks').execute();
}
