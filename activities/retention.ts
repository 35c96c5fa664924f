import { sql } from 'kysely';
import { FINAL_STATUSES } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';

export interface RetentionBatch {
  /** Applications whose personal data was removed in this batch. */
  applications: number;
  documents: number;
  letters: number;
  /** True when a full batch was found: the sweep asks again. */
  more: boolean;
}

/**
 * One batch of the retention sweep (workflows/retention-sweep.ts). An application closed (withdrawn,
 * closed, ended) longer ago than its organisation's retention period loses its personal data: the
 * declared income, the stored timeline, its letters and its place in the manager's inbox; its log
 * number, status, size and dates stay for statistics. A household under an open case (an
 * application still moving, a recertification not completed, a relocation not returned, a
 * current tenancy) is never touched. Once a household has no application left unpurged, the
 * documents it uploaded up to its last purged application's closing are removed, files first.
 * Every purge is written to privacy_audit. `now` comes from the workflow (deterministic, and the
 * time-skipping test moves it).
 */
export async function purgeExpiredApplications(db: Db, blobs: BlobStore, input: { now: number; limit: number }): Promise<RetentionBatch> {
  const now = new Date(input.now);
  const due = await db
    .selectFrom('applications as a')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id')
    .select(['a.id', 'a.household_id', 'a.state_updated_at'])
    .where('a.purged_at', 'is', null)
    .where('a.status', 'in', [...FINAL_STATUSES])
    .where(sql<boolean>`a.state_updated_at < ${now}::timestamptz - make_interval(days => o.retention_days)`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('applications as open')
            .select(sql`1`.as('x'))
            .whereRef('open.household_id', '=', 'a.household_id')
            .where('open.status', 'not in', [...FINAL_STATUSES])
            .union(selectFrom('recertification_cases as r').select(sql`1`.as('x')).whereRef('r.household_id', '=', 'a.household_id').where('r.status', '<>', 'completed'))
            .union(selectFrom('relocation_cases as m').select(sql`1`.as('x')).whereRef('m.household_id', '=', 'a.household_id').where('m.status', '<>', 'returned'))
            .union(selectFrom('tenancies as t').select(sql`1`.as('x')).whereRef('t.household_id', '=', 'a.household_id')),
        ),
      ),
    )
    .orderBy('a.state_updated_at')
    .orderBy('a.id')
    .limit(input.limit)
    .execute();

  let documents = 0;
  let letters = 0;
  for (const application of due) {
    // Files first: a retried batch finds the rows again and deletes what is left (deleting a missing file is no error).
    const mailed = await db.selectFrom('mailed_letters').select(['id', 'blob_key']).where('application_id', '=', application.id).execute();
    const signed = await db.selectFrom('signed_letters').select(['signed_key', 'letter_key']).where('case_id', '=', application.id).execute();
    for (const m of mailed) await blobs.delete(m.blob_key);
    for (const s of signed) {
      await blobs.delete(s.signed_key);
      await blobs.delete(s.letter_key);
    }
    const purged = await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('mailed_letters').where('application_id', '=', application.id).execute();
      await trx.deleteFrom('signed_letters').where('case_id', '=', application.id).execute();
      await trx.deleteFrom('appointment_bookings').where('application_id', '=', application.id).execute();
      await trx.deleteFrom('application_match_keys').where('application_id', '=', application.id).execute();
      await trx.deleteFrom('manager_tasks').where('case_id', '=', application.id).execute();
      const row = await trx
        .updateTable('applications')
        .set({ household_income: null, household_income_encrypted: null, view: null, pending_tasks: '[]', lottery_groups: '[]', lottery_group_positions: null, paper_form_document_id: null, purged_at: now })
        .where('id', '=', application.id)
        .where('purged_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!row) return false;
      await trx
        .insertInto('privacy_audit')
        .values({ action: 'purge', household_id: application.household_id, application_id: application.id, detail: JSON.stringify({ letters: mailed.length + signed.length, closedAt: new Date(application.state_updated_at).toISOString() }) })
        .execute();
      return true;
    });
    if (!purged) continue;
    letters += mailed.length + signed.length;
    documents += await purgeHouseholdDocuments(db, blobs, application.household_id);
  }
  return { applications: due.length, documents, letters, more: due.length === input.limit };
}

/** The household's documents, once none of its applications keeps personal data: those uploaded up to its last purged application's closing. */
async function purgeHouseholdDocuments(db: Db, blobs: BlobStore, householdId: string): Promise<number> {
  const kept = await db.selectFrom('applications').select('id').where('household_id', '=', householdId).where('purged_at', 'is', null).limit(1).executeTakeFirst();
  if (kept) return 0;
  const last = await db.selectFrom('applications').select((eb) => eb.fn.max('state_updated_at').as('closed')).where('household_id', '=', householdId).executeTakeFirst();
  if (!last?.closed) return 0;
  const rows = await db.selectFrom('household_documents').select(['id', 'blob_key']).where('household_id', '=', householdId).where('uploaded_at', '<=', new Date(last.closed)).execute();
  for (const d of rows) if (d.blob_key) await blobs.delete(d.blob_key);
  if (rows.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('household_documents').where('id', 'in', rows.map((d) => d.id)).execute();
    await trx.insertInto('privacy_audit').values({ action: 'purge', household_id: householdId, detail: JSON.stringify({ documents: rows.length }) }).execute();
  });
  return rows.length;
}
