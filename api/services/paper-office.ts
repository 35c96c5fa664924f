import { sql } from 'kysely';
import { LETTERS_WITH_CLAIM_CODE, type ClaimCodeReissued, type DuplicatePairRow, type MailedLetterRow } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { claimCodeHashes } from '../../infra/paper/claim-code';
import { issueClaimCode } from '../../infra/paper/claim-code-letter';
import { HttpError, conflict, forbidden, notFound } from '../errors';
import type { Session } from '../session';
import { managedLottery } from './lottery';

/** A keyset cursor `<timestamp as text>|<uuid>`: the text keeps PostgreSQL's microseconds, so no row is skipped or repeated. */
const CURSOR = /^([0-9: .+-]{10,40})\|([0-9a-f-]{36})$/;
function readCursor(after: string | undefined): { at: string; id: string } | null {
  if (!after) return null;
  const m = CURSOR.exec(after);
  if (!m) throw new HttpError(400, 'invalidCursor');
  return { at: m[1]!, id: m[2]! };
}

/** The possible duplicates of a lottery, undecided first, then oldest first; a page at a time. */
export async function listDuplicatePairs(db: Db, session: Session, opportunityId: string, after: string | undefined, limit: number): Promise<{ items: DuplicatePairRow[]; next: string | null }> {
  await managedLottery(db, session, opportunityId);
  const cursor = readCursor(after);
  let query = db
    .selectFrom('lottery_duplicate_pairs as p')
    .innerJoin('applications as a', 'a.id', 'p.first_application_id')
    .innerJoin('applications as b', 'b.id', 'p.second_application_id')
    .select([
      'p.id',
      'p.kept_application_id',
      'p.reason',
      'p.decided_at',
      'p.created_at',
      sql<string>`p.created_at::text`.as('cursor_at'),
      'a.id as a_id',
      'a.log_number as a_log',
      'a.channel as a_channel',
      'a.applied_at as a_applied',
      'a.status as a_status',
      'b.id as b_id',
      'b.log_number as b_log',
      'b.channel as b_channel',
      'b.applied_at as b_applied',
      'b.status as b_status',
    ])
    .where('p.opportunity_id', '=', opportunityId);
  if (cursor) query = query.where(sql<boolean>`(p.created_at, p.id) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
  const rows = await query.orderBy('p.created_at').orderBy('p.id').limit(limit + 1).execute();
  const items = rows.slice(0, limit).map((r) => ({
    id: r.id,
    first: { applicationId: r.a_id, logNumber: r.a_log, channel: r.a_channel, appliedAt: new Date(r.a_applied).toISOString(), status: r.a_status },
    second: { applicationId: r.b_id, logNumber: r.b_log, channel: r.b_channel, appliedAt: new Date(r.b_applied).toISOString(), status: r.b_status },
    keptApplicationId: r.kept_application_id,
    reason: r.reason,
    decidedAt: r.decided_at ? r.decided_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
  }));
  const last = rows.length > limit ? rows[limit - 1]! : null;
  return { items, next: last ? `${last.cursor_at}|${last.id}` : null };
}

async function managerOrganization(db: Db, session: Session): Promise<string> {
  if (session.role !== 'Manager') throw forbidden();
  const user = await db.selectFrom('users').select('organization_id').where('id', '=', session.userId).executeTakeFirst();
  if (!user?.organization_id) throw forbidden();
  return user.organization_id;
}

/** The office's letters to print and mail (oldest first), or every letter sent (newest first); a page at a time. */
export async function printQueue(db: Db, session: Session, query: { show: 'to_mail' | 'all'; after?: string | undefined; limit: number }): Promise<{ items: MailedLetterRow[]; next: string | null }> {
  const organizationId = await managerOrganization(db, session);
  const cursor = readCursor(query.after);
  const toMail = query.show === 'to_mail';
  let q = db
    .selectFrom('mailed_letters as m')
    .leftJoin('applications as a', 'a.id', 'm.application_id')
    .leftJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select(['m.id', 'm.letter', 'm.language', 'm.queued_at', 'm.printed_at', 'm.mailed_at', sql<string>`m.queued_at::text`.as('cursor_at'), 'a.log_number', 'o.name'])
    .where('m.organization_id', '=', organizationId);
  if (toMail) q = q.where('m.mailed_at', 'is', null);
  if (cursor) q = q.where(toMail ? sql<boolean>`(m.queued_at, m.id) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : sql<boolean>`(m.queued_at, m.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
  const rows = await (toMail ? q.orderBy('m.queued_at').orderBy('m.id') : q.orderBy('m.queued_at', 'desc').orderBy('m.id', 'desc')).limit(query.limit + 1).execute();
  const items = rows.slice(0, query.limit).map((r) => ({
    id: r.id,
    letter: r.letter,
    language: r.language,
    logNumber: r.log_number,
    opportunityName: r.name,
    queuedAt: new Date(r.queued_at).toISOString(),
    printedAt: r.printed_at ? r.printed_at.toISOString() : null,
    mailedAt: r.mailed_at ? r.mailed_at.toISOString() : null,
  }));
  const last = rows.length > query.limit ? rows[query.limit - 1]! : null;
  return { items, next: last ? `${last.cursor_at}|${last.id}` : null };
}

async function ownLetter(db: Db, session: Session, letterId: string) {
  const organizationId = await managerOrganization(db, session);
  const row = await db.selectFrom('mailed_letters').selectAll().where('id', '=', letterId).executeTakeFirst();
  if (!row) throw notFound();
  if (row.organization_id !== organizationId) throw forbidden();
  return row;
}

/**
 * Marks a letter printed or mailed, once each (the first time stands); mailed implies printed.
 * A letter that printed a claim code has done its work once mailed: its PDF is deleted, so the
 * code lives on paper only.
 */
export async function markLetter(db: Db, blobs: BlobStore, session: Session, letterId: string, mark: 'printed' | 'mailed'): Promise<MailedLetterRow> {
  const letter = await ownLetter(db, session, letterId);
  const now = new Date();
  const purge = mark === 'mailed' && LETTERS_WITH_CLAIM_CODE.includes(letter.letter);
  await db
    .updateTable('mailed_letters')
    .set(
      mark === 'printed'
        ? { printed_at: sql`coalesce(printed_at, ${now})`, printed_by: sql`coalesce(printed_by, ${session.userId}::uuid)` }
        : {
            printed_at: sql`coalesce(printed_at, ${now})`,
            printed_by: sql`coalesce(printed_by, ${session.userId}::uuid)`,
            mailed_at: sql`coalesce(mailed_at, ${now})`,
            mailed_by: sql`coalesce(mailed_by, ${session.userId}::uuid)`,
            ...(purge ? { purged_at: sql`coalesce(purged_at, ${now})` } : {}),
          },
    )
    .where('id', '=', letterId)
    .execute();
  // After the row says purged, so a failed delete is retried by marking again, never served.
  if (purge) await blobs.delete(letter.blob_key);
  const row = await db
    .selectFrom('mailed_letters as m')
    .leftJoin('applications as a', 'a.id', 'm.application_id')
    .leftJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select(['m.id', 'm.letter', 'm.language', 'm.queued_at', 'm.printed_at', 'm.mailed_at', 'a.log_number', 'o.name'])
    .where('m.id', '=', letterId)
    .executeTakeFirstOrThrow();
  return { id: row.id, letter: row.letter, language: row.language, logNumber: row.log_number, opportunityName: row.name, queuedAt: new Date(row.queued_at).toISOString(), printedAt: row.printed_at?.toISOString() ?? null, mailedAt: row.mailed_at?.toISOString() ?? null };
}

/** The letter's PDF, for the office to print; 410 once a letter that printed a claim code was mailed. */
export async function letterPdf(db: Db, blobs: BlobStore, session: Session, letterId: string): Promise<Buffer> {
  const row = await ownLetter(db, session, letterId);
  if (row.purged_at) throw new HttpError(410, 'letterPurged');
  const blob = await blobs.get(row.blob_key);
  if (!blob) throw notFound();
  return blob.body;
}

/**
 * The office issues a household without a login a new claim code (the old one lost, or past its
 * 90 days): the old code stops working at once, and the new one goes in a letter of its own in
 * the household's language, queued to print and mail. Only for the organisation that entered the
 * application.
 */
export async function reissueClaimCode(db: Db, blobs: BlobStore, session: Session, applicationId: string): Promise<ClaimCodeReissued> {
  const organizationId = await managerOrganization(db, session);
  const application = await db
    .selectFrom('applications as a')
    .innerJoin('households as h', 'h.id', 'a.household_id')
    .select(['a.household_id', 'a.organization_id', 'h.login'])
    .where('a.id', '=', applicationId)
    .executeTakeFirst();
  if (!application) throw notFound();
  if (application.organization_id !== organizationId) throw forbidden();
  if (application.login !== 'none') throw conflict('alreadyClaimed');
  const issued = await issueClaimCode(db, blobs, { householdId: application.household_id, applicationId, organizationId });
  if (!issued) throw conflict('alreadyClaimed');
  return { householdId: application.household_id, letterId: issued.letterId, expiresAt: issued.expiresAt.toISOString() };
}

/**
 * A household entered from paper claims its application with the code from its first letter and
 * the head of household's date of birth as written on the form: the signed-in account becomes the
 * household's head and keeps its applications. An account that already has a household of its own
 * (members or applications) cannot take another; nor can anyone acting for another household (an
 * ambassador's session), which would hand the household to the account being acted for.
 * A wrong code and a wrong date answer alike (`invalidClaimCode`), and the route counts both.
 */
export async function claimPaperApplication(db: Db, session: Session, input: { code: string; dateOfBirth: string }, now = new Date()): Promise<{ householdId: string; applicationIds: string[] }> {
  if (session.role !== 'User') throw forbidden();
  if (session.realUserId) throw new HttpError(403, 'notAllowedWhileImpersonating');
  return db.transaction().execute(async (trx) => {
    const paper = await trx
      .selectFrom('households')
      .select(['id', 'head_user_id', 'claim_code_expires_at'])
      .where('claim_code_hash', 'in', claimCodeHashes(input.code))
      .where('login', '=', 'none')
      .forUpdate()
      .executeTakeFirst();
    if (!paper) throw new HttpError(404, 'invalidClaimCode');
    const head = await trx.selectFrom('household_members').select('id').where('household_id', '=', paper.id).where('relationship', '=', 'self').where('date_of_birth', '=', input.dateOfBirth).executeTakeFirst();
    if (!head) throw new HttpError(404, 'invalidClaimCode');
    if (paper.claim_code_expires_at && paper.claim_code_expires_at <= now) throw new HttpError(410, 'claimCodeExpired');
    const own = await trx.selectFrom('households').select('id').where('head_user_id', '=', session.userId).executeTakeFirst();
    if (own) {
      const used = await trx
        .selectFrom('households as h')
        .select([sql<boolean>`exists (select 1 from household_members m where m.household_id = h.id) or exists (select 1 from applications a where a.household_id = h.id)`.as('used')])
        .where('h.id', '=', own.id)
        .executeTakeFirstOrThrow();
      if (used.used) throw conflict('alreadyHasHousehold');
      // The empty household made when the account first opened its profile gives way to the claimed one.
      await trx.deleteFrom('households').where('id', '=', own.id).execute();
    }
    await trx
      .updateTable('households')
      .set({ head_user_id: session.userId, login: 'account', claim_code_hash: null, claim_code_expires_at: null, claimed_at: now, claimed_from_user_id: paper.head_user_id })
      .where('id', '=', paper.id)
      .execute();
    const apps = await trx.updateTable('applications').set({ applicant_user_id: session.userId }).where('household_id', '=', paper.id).returning('id').execute();
    // The placeholder head can never sign in; it stays as the author of what was entered before, and
    // as the person running cases were started with (their notices reach the new head: infra/db/repositories/notice-recipient.ts).
    await trx.updateTable('users').set({ status: 'claimed' }).where('id', '=', paper.head_user_id).execute();
    return { householdId: paper.id, applicationIds: apps.map((a) => a.id) };
  });
}
