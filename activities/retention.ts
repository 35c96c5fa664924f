import { sql, type Transaction as KyselyTransaction } from 'kysely';
import { FINAL_STATUSES } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Database, Db } from '../infra/db/database';
import { refreshCompletion } from '../infra/db/repositories/profile-completion';

type Transaction = KyselyTransaction<Database>;

export interface RetentionBatch {
  /** Applications whose personal data was removed in this batch. */
  applications: number;
  documents: number;
  letters: number;
  /** True when a full batch was found: the sweep asks again. */
  more: boolean;
}

/** Files queued for deletion taken from the store per pass (what an earlier run left is finished first). */
const DELETIONS_PER_PASS = 1000;

/**
 * Whether the household is under an open condition that keeps all its data: an application still
 * moving (a new one included), a recertification not completed, a relocation not returned, a
 * current tenancy.
 */
function openCondition(db: Db | Transaction, householdId: string) {
  return db
    .selectFrom('applications')
    .select(sql<string>`'application'`.as('open'))
    .where('household_id', '=', householdId)
    .where('status', 'not in', [...FINAL_STATUSES])
    .union(db.selectFrom('recertification_cases').select(sql<string>`'recertification'`.as('open')).where('household_id', '=', householdId).where('status', '<>', 'completed'))
    .union(db.selectFrom('relocation_cases').select(sql<string>`'relocation'`.as('open')).where('household_id', '=', householdId).where('status', '<>', 'returned'))
    .union(db.selectFrom('tenancies').select(sql<string>`'tenancy'`.as('open')).where('household_id', '=', householdId))
    .limit(1)
    .executeTakeFirst();
}

/**
 * One batch of the retention sweep (workflows/retention-sweep.ts). An application closed (withdrawn,
 * closed, ended) longer ago than its organisation's retention period loses its personal data: the
 * declared income, the stored timeline, every file under its blob prefix (each letter version, the
 * signature images) and its mailed and signed letters, and its place in the manager's inbox; its
 * log number, status, size and dates stay for statistics. Once a household has no application left
 * unpurged, the documents it uploaded up to its last purged application's closing are removed too,
 * and its profile's completion is computed again. Every purge is written to privacy_audit. `now`
 * comes from the workflow (deterministic, and the time-skipping test moves it).
 *
 * A household under an open condition is never touched, and the scan's answer may be stale by the
 * time a purge runs: each purge locks the household row and checks every open condition again in
 * its own transaction (an application, case or tenancy added for the household waits on that lock,
 * its foreign key naming the row). Files are deleted only after the commit, from `blob_deletions`,
 * where the transaction queued their keys: a crash in between leaves them queued, and the next run
 * (or this one's next batch) deletes them.
 */
export async function purgeExpiredApplications(db: Db, blobs: BlobStore, input: { now: number; limit: number }): Promise<RetentionBatch> {
  await deleteQueuedBlobs(db, blobs);
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
    // Every file the application's own prefix holds (letter versions, signed copies, signature images), listed before the transaction keeps it short.
    const prefixed: string[] = [];
    for await (const key of blobs.list(`applications/${application.id}/`)) prefixed.push(key);
    const purged = await db.transaction().execute((trx) => purgeOne(trx, application, prefixed, now));
    if (!purged) continue;
    letters += purged.letters;
    documents += purged.documents;
    await deleteQueuedBlobs(db, blobs, purged.keys);
  }
  return { applications: due.length, documents, letters, more: due.length === input.limit };
}

/** The purge of one application and, when it was the household's last, its documents: in one transaction, files queued. Null when it must not be purged (any more). */
async function purgeOne(
  trx: Transaction,
  application: { id: string; household_id: string; state_updated_at: Date },
  prefixed: readonly string[],
  now: Date,
): Promise<{ letters: number; documents: number; keys: string[] } | null> {
  const householdId = application.household_id;
  await trx.selectFrom('households').select('id').where('id', '=', householdId).forUpdate().executeTakeFirst();
  if (await openCondition(trx, householdId)) return null;
  // Still closed, unpurged and past its period (an application reopened since the scan has moved on).
  const still = await trx
    .selectFrom('applications as a')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id')
    .select('a.id')
    .where('a.id', '=', application.id)
    .where('a.purged_at', 'is', null)
    .where('a.status', 'in', [...FINAL_STATUSES])
    .where(sql<boolean>`a.state_updated_at < ${now}::timestamptz - make_interval(days => o.retention_days)`)
    .forUpdate('a')
    .executeTakeFirst();
  if (!still) return null;

  const mailed = await trx.deleteFrom('mailed_letters').where('application_id', '=', application.id).returning('blob_key').execute();
  const signed = await trx.deleteFrom('signed_letters').where('case_id', '=', application.id).returning(['signed_key', 'letter_key']).execute();
  await trx.deleteFrom('appointment_bookings').where('application_id', '=', application.id).execute();
  await trx.deleteFrom('application_match_keys').where('application_id', '=', application.id).execute();
  await trx.deleteFrom('manager_tasks').where('case_id', '=', application.id).execute();
  await trx
    .updateTable('applications')
    .set({ household_income: null, household_income_encrypted: null, view: null, pending_tasks: '[]', lottery_groups: '[]', lottery_group_positions: null, paper_form_document_id: null, purged_at: now })
    .where('id', '=', application.id)
    .execute();
  await trx
    .insertInto('privacy_audit')
    .values({ action: 'purge', household_id: householdId, application_id: application.id, detail: JSON.stringify({ letters: mailed.length + signed.length, closedAt: new Date(application.state_updated_at).toISOString() }) })
    .execute();

  const keys = [...prefixed, ...mailed.map((m) => m.blob_key), ...signed.flatMap((s) => [s.signed_key, s.letter_key])];
  const documentKeys = await purgeHouseholdDocuments(trx, householdId);
  keys.push(...documentKeys.keys);
  const unique = [...new Set(keys)];
  if (unique.length > 0) await trx.insertInto('blob_deletions').values(unique.map((blob_key) => ({ blob_key }))).onConflict((oc) => oc.column('blob_key').doNothing()).execute();
  return { letters: mailed.length + signed.length, documents: documentKeys.count, keys: unique };
}

/** The household's documents, once none of its applications keeps personal data: those uploaded up to its last purged application's closing; its completion computed again. */
async function purgeHouseholdDocuments(trx: Transaction, householdId: string): Promise<{ count: number; keys: string[] }> {
  const kept = await trx.selectFrom('applications').select('id').where('household_id', '=', householdId).where('purged_at', 'is', null).limit(1).executeTakeFirst();
  if (kept) return { count: 0, keys: [] };
  const last = await trx.selectFrom('applications').select((eb) => eb.fn.max('state_updated_at').as('closed')).where('household_id', '=', householdId).executeTakeFirst();
  if (!last?.closed) return { count: 0, keys: [] };
  const rows = await trx.deleteFrom('household_documents').where('household_id', '=', householdId).where('uploaded_at', '<=', new Date(last.closed)).returning(['id', 'blob_key']).execute();
  if (rows.length === 0) return { count: 0, keys: [] };
  await trx.insertInto('privacy_audit').values({ action: 'purge', household_id: householdId, detail: JSON.stringify({ documents: rows.length }) }).execute();
  // The documents section counted files that are gone.
  await refreshCompletion(trx, householdId);
  return { count: rows.length, keys: rows.flatMap((d) => (d.blob_key ? [d.blob_key] : [])) };
}

/**
 * Deletes queued files from the store, then their queue rows: `keys` (those a purge just queued),
 * else the oldest queued. A store that fails leaves the rest queued for the next pass; the purge
 * itself is committed and stays done.
 */
async function deleteQueuedBlobs(db: Db, blobs: BlobStore, keys?: readonly string[]): Promise<void> {
  const queued = keys ?? (await db.selectFrom('blob_deletions').select('blob_key').orderBy('queued_at').limit(DELETIONS_PER_PASS).execute()).map((r) => r.blob_key);
  for (const key of queued) {
    try {
      await blobs.delete(key);
    } catch {
      return;
    }
    await db.deleteFrom('blob_deletions').where('blob_key', '=', key).execute();
  }
}
