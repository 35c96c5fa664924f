import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredIncomeColumns } from '../../infra/db/repositories/declared-income';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { recordHistory } from '../helpers/histories';
import { startTimeSkippingEnv } from '../helpers/time-skipping';

/**
 * The retention sweep on the time-skipping server: an application closed longer than its
 * organisation's retention period loses its personal data (declared income, timeline, letters) and
 * its household's documents, keeping its log number, status and dates; every purge is audited; a
 * household with a case still open keeps everything.
 */
describe('retention sweep', () => {
  let ts: Awaited<ReturnType<typeof startTimeSkippingEnv>>;
  const RETENTION_DAYS = 400;

  beforeAll(async () => {
    ts = await startTimeSkippingEnv();
  }, 180_000);
  afterAll(() => ts?.close());

  /** One run of the sweep; its history is kept for the replay test when `record` names it (RECORD_HISTORIES=1). */
  const sweep = async (record?: string) => {
    const handle = await ts.client.workflow.start('retentionSweep', { taskQueue: ts.taskQueue, workflowId: `retention-test-${randomUUID()}`, args: [] });
    const result = (await handle.result()) as { applications: number; documents: number; letters: number };
    if (record) await recordHistory(record, handle);
    return result;
  };

  /** A household with one closed application (and optionally one still open), a document on file and a letter mailed. */
  async function household(options: { open: boolean }) {
    const suffix = randomUUID().slice(0, 8);
    const org = await ts.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const opportunities = await ts.db.selectFrom('opportunities').select('id').where('organization_id', '=', org.id).orderBy('id').limit(2).execute();
    expect(opportunities).toHaveLength(2);
    const user = await ts.db.insertInto('users').values({ username: `r-${suffix}`, email: `r-${suffix}@example.org`, first_name: 'Ret', last_name: suffix, role: 'User', password_hash: 'unused' }).returning('id').executeTakeFirstOrThrow();
    const h = await ts.db.insertInto('households').values({ head_user_id: user.id, household_size: 2, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow();
    const closedAt = new Date(await ts.env.currentTimeMs());
    const application = async (status: 'closed' | 'in_review', logNumber: string, opportunity: { id: string }) => {
      const id = randomUUID();
      await ts.db
        .insertInto('applications')
        .values({
          id, workflow_id: leaseUpWorkflowId(id), household_id: h.id, opportunity_id: opportunity.id, organization_id: org.id, applicant_user_id: user.id, log_number: logNumber,
          status, current_step: 'documentation_review', pending_tasks: '[]', household_size: 2, ...declaredIncomeColumns(45_000), applied_at: closedAt, state_updated_at: closedAt, state_version: 3,
          view: JSON.stringify({ history: [{ action: 'Apply' }] }),
        })
        .execute();
      return id;
    };
    const closed = await application('closed', `R-${suffix}-1`, opportunities[0]!);
    const open = options.open ? await application('in_review', `R-${suffix}-2`, opportunities[1]!) : null;
    const blobKey = `households/${h.id}/documents/${randomUUID()}`;
    await ts.blobs.put(blobKey, Buffer.from('%PDF-1.4 pay stub'), 'application/pdf');
    const document = await ts.db
      .insertInto('household_documents')
      .values({ household_id: h.id, document_type: 'pay_stub', file_name: 'stub.pdf', blob_key: blobKey, content_type: 'application/pdf', size_bytes: 17, uploaded_by: user.id, uploaded_at: closedAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    const letterKey = `households/${h.id}/letters/${randomUUID()}`;
    await ts.blobs.put(letterKey, Buffer.from('%PDF-1.4 letter'), 'application/pdf');
    await ts.db.insertInto('mailed_letters').values({ organization_id: org.id, household_id: h.id, application_id: closed, letter: 'notice', language: 'en', blob_key: letterKey, dedupe_key: `retention-${suffix}` }).execute();
    return { householdId: h.id, closed, open, documentId: document.id, blobKey, letterKey };
  }

  const application = (id: string) => ts.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const auditOf = (householdId: string) => ts.db.selectFrom('privacy_audit').select(['action', 'application_id', 'detail']).where('household_id', '=', householdId).orderBy('id').execute();

  it('purges after the period, keeps a household with an open case, and audits every purge', async () => {
    await ts.db.updateTable('organizations').set({ retention_days: RETENTION_DAYS }).execute();
    const done = await household({ open: false });
    const busy = await household({ open: true });

    // Within the period: nothing is touched.
    expect(await sweep()).toEqual({ applications: 0, documents: 0, letters: 0 });
    expect((await application(done.closed)).purged_at).toBeNull();

    await ts.env.sleep(`${RETENTION_DAYS + 1} days`);
    const result = await sweep('retention-sweep-purged');
    expect(result).toEqual({ applications: 1, documents: 1, letters: 1 });

    // The closed application keeps what statistics need, and nothing personal.
    const purged = await application(done.closed);
    expect(purged).toMatchObject({ status: 'closed', household_income: null, household_income_encrypted: null, view: null, household_size: 2 });
    expect(purged.log_number).toMatch(/^R-/);
    expect(purged.purged_at).not.toBeNull();
    expect(new Date(purged.applied_at).getTime()).toBeLessThan(new Date(purged.purged_at!).getTime());
    expect(await ts.db.selectFrom('household_documents').select('id').where('id', '=', done.documentId).executeTakeFirst()).toBeUndefined();
    expect(await ts.blobs.get(done.blobKey)).toBeNull();
    expect(await ts.blobs.get(done.letterKey)).toBeNull();
    expect(await ts.db.selectFrom('mailed_letters').select('id').where('application_id', '=', done.closed).executeTakeFirst()).toBeUndefined();
    expect((await auditOf(done.householdId)).map((a) => [a.action, a.application_id, Object.keys(a.detail).sort()])).toEqual([
      ['purge', done.closed, ['closedAt', 'letters']],
      ['purge', null, ['documents']],
    ]);

    // The household with an open case keeps its closed application, documents and letters.
    const kept = await application(busy.closed);
    expect(kept.purged_at).toBeNull();
    expect(kept.household_income_encrypted).not.toBeNull();
    expect(await ts.db.selectFrom('household_documents').select('id').where('id', '=', busy.documentId).executeTakeFirst()).toBeDefined();
    expect(await ts.blobs.get(busy.blobKey)).not.toBeNull();
    expect(await auditOf(busy.householdId)).toEqual([]);

    // A second run finds nothing more to do.
    expect(await sweep()).toEqual({ applications: 0, documents: 0, letters: 0 });
  }, 120_000);
});
