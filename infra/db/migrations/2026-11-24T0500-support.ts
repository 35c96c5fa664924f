import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Support tickets, messages with the managing office, and the FAQ. Ticket subjects,
// ticket views (they hold the thread) and chat message bodies are personal data: stored sealed
// (AES-256-GCM, key id in the value). Every list pages by cursor on (sort key, id), with an index
// for each filter and sort.

export async function up(db: Kysely<any>): Promise<void> {
  // The read model of support-ticket workflows: one row per ticket, written by its projection.
  await db.schema
    .createTable('support_tickets')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('requester_user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('requester_kind', 'text', (c) => c.notNull().check(sql`requester_kind in ('resident', 'ambassador')`))
    .addColumn('household_id', 'uuid', (c) => c.references('households.id').onDelete('set null'))
    .addColumn('organization_id', 'uuid', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('subject_encrypted', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('awaiting_staff', 'awaiting_requester', 'resolved', 'closed')`))
    .addColumn('case_kind', 'text', (c) => c.check(sql`case_kind in ('lease_up', 'recertification', 'relocation')`))
    .addColumn('case_id', 'uuid')
    .addColumn('assignee_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('escalated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('first_answer_due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_activity_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state_version', 'integer', (c) => c.notNull())
    .addColumn('view', 'jsonb', (c) => c.notNull())
    .addColumn('projected_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The requester's own list, a case's tickets, the organisation's queue (by status, category,
  // assignee, escalation) and the admins' queue across organisations: newest activity first.
  await sql`create index support_tickets_requester on support_tickets (requester_user_id, last_activity_at, id)`.execute(db);
  await sql`create index support_tickets_requester_status on support_tickets (requester_user_id, status, last_activity_at, id)`.execute(db);
  await sql`create index support_tickets_case on support_tickets (case_id, last_activity_at, id) where case_id is not null`.execute(db);
  await sql`create index support_tickets_org on support_tickets (organization_id, last_activity_at, id)`.execute(db);
  await sql`create index support_tickets_org_status on support_tickets (organization_id, status, last_activity_at, id)`.execute(db);
  await sql`create index support_tickets_org_category on support_tickets (organization_id, category, last_activity_at, id)`.execute(db);
  await sql`create index support_tickets_org_escalated on support_tickets (organization_id, last_activity_at, id) where escalated`.execute(db);
  await sql`create index support_tickets_assignee on support_tickets (assignee_user_id, last_activity_at, id) where assignee_user_id is not null`.execute(db);
  await sql`create index support_tickets_activity on support_tickets (last_activity_at, id)`.execute(db);
  await sql`create index support_tickets_status on support_tickets (status, last_activity_at, id)`.execute(db);
  await sql`create index support_tickets_category on support_tickets (category, last_activity_at, id)`.execute(db);

  // One conversation per household and organisation (spec /api/Chat).
  await db.schema
    .createTable('chat_conversations')
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('chat_conversations_pk', ['household_id', 'organization_id'])
    .execute();
  await sql`create index chat_conversations_org_active on chat_conversations (organization_id, last_message_at, household_id)`.execute(db);

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('household_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('sender_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('sender_side', 'text', (c) => c.notNull().check(sql`sender_side in ('household', 'staff')`))
    // Null once deleted by its author (the row stays so the thread keeps its shape).
    .addColumn('body_encrypted', 'text')
    .addColumn('document_id', 'uuid')
    .addColumn('pinned', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .addForeignKeyConstraint('chat_messages_conversation', ['household_id', 'organization_id'], 'chat_conversations', ['household_id', 'organization_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  // History pages newest first; unseen counts read the messages after a reader's last seen time.
  await sql`create index chat_messages_thread on chat_messages (household_id, organization_id, created_at, id)`.execute(db);
  await sql`create index chat_messages_pinned on chat_messages (household_id, organization_id, created_at, id) where pinned and deleted_at is null`.execute(db);
  await sql`create index chat_messages_org_unseen on chat_messages (organization_id, sender_side, created_at) where deleted_at is null`.execute(db);

  // Where each reader has read up to in each conversation (the seen status and the unread counts).
  await db.schema
    .createTable('chat_reads')
    .addColumn('household_id', 'uuid', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seen_up_to', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_reads_pk', ['household_id', 'organization_id', 'user_id'])
    .addForeignKeyConstraint('chat_reads_conversation', ['household_id', 'organization_id'], 'chat_conversations', ['household_id', 'organization_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await sql`create index chat_reads_user on chat_reads (user_id)`.execute(db);

  // FAQ (GET api/FaqCategory): categories and questions, each text in en, es, zh and bn.
  await db.schema
    .createTable('faq_categories')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('faq_questions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('category_id', 'uuid', (c) => c.notNull().references('faq_categories.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('question', 'jsonb', (c) => c.notNull())
    .addColumn('answer', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index faq_questions_category on faq_questions (category_id, position, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['faq_questions', 'faq_categories', 'chat_reads', 'chat_messages', 'chat_conversations', 'support_tickets']) {
    await db.schema.dropTable(table).execute();
  }
}
