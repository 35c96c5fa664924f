import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { LANGUAGES, type Language } from '../../domain';
import { zipStream, type ZipEntry } from '../../infra/archive/zip';
import type { BlobStore } from '../../infra/blobs';
import { dataCipher, openJson } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { declaredIncomeOf } from '../../infra/db/repositories/declared-income';
import { readIncomes } from '../../infra/db/repositories/household-income-store';
import en from '../../web/src/i18n/locales/en/profileSetting.json' with { type: 'json' };
import es from '../../web/src/i18n/locales/es/profileSetting.json' with { type: 'json' };
import zh from '../../web/src/i18n/locales/zh/profileSetting.json' with { type: 'json' };
import bn from '../../web/src/i18n/locales/bn/profileSetting.json' with { type: 'json' };
import { HttpError, TooManyAttempts, conflict, notFound } from '../errors';
import type { Session } from '../session';
import { listAssets } from './household-assets';

/** The summary's sentences: the web app's own translations (settings page), so each is written once per language. */
const SUMMARY = { en: en.myData.summary, es: es.myData.summary, zh: zh.myData.summary, bn: bn.myData.summary } satisfies Record<Language, typeof en.myData.summary>;

const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));

/** A name safe inside the archive: no folders, no control characters. */
const safeName = (name: string) => name.replace(/[/\\\p{Cc}]/gu, '_').slice(0, 120) || 'file';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function blobOrNull(blobs: BlobStore, key: string | null): Promise<Buffer | null> {
  if (!key) return null;
  return (await blobs.get(key))?.body ?? null;
}

/**
 * How long a download holds its household's lease without reading a file; each file read renews
 * it. A replica that dies mid-download frees the household once this has passed.
 */
const LEASE_SECONDS = 300;

export interface MyDataLimits {
  /** The most document bytes (their recorded sizes) one archive may hold. */
  maxBytes: number;
  /** Downloads per household in any hour. */
  perHour: number;
}

export interface MyDataArchive {
  fileName: string;
  /** The zip, written as it is read; the household's lease ends when this stream closes. */
  body: Readable;
}

/** Takes the household's download lease, or null while another download (on any replica) holds it. */
async function takeLease(db: Db, householdId: string): Promise<string | null> {
  const leaseId = randomUUID();
  const taken = await db
    .insertInto('my_data_export_leases')
    .values({ household_id: householdId, lease_id: leaseId, expires_at: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
    .onConflict((oc) =>
      oc.column('household_id').doUpdateSet({ lease_id: leaseId, expires_at: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` }).where('my_data_export_leases.expires_at', '<=', sql<Date>`now()`),
    )
    .returning('lease_id')
    .executeTakeFirst();
  return taken ? leaseId : null;
}

const renewLease = (db: Db, householdId: string, leaseId: string) =>
  db
    .updateTable('my_data_export_leases')
    .set({ expires_at: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
    .where('household_id', '=', householdId)
    .where('lease_id', '=', leaseId)
    .execute();

const releaseLease = (db: Db, householdId: string, leaseId: string) =>
  db.deleteFrom('my_data_export_leases').where('household_id', '=', householdId).where('lease_id', '=', leaseId).execute();

/** Refuses a download past the hourly limit (429 with the seconds until the oldest in the hour leaves it), or one whose documents add up past the cap (409). */
async function checkLimits(db: Db, householdId: string, limits: MyDataLimits): Promise<void> {
  const recent = await db
    .selectFrom('privacy_audit')
    .select([(eb) => eb.fn.countAll<string>().as('n'), sql<number | null>`extract(epoch from min(created_at) + interval '1 hour' - now())`.as('wait')])
    .where('household_id', '=', householdId)
    .where('action', '=', 'export')
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= limits.perHour) throw new TooManyAttempts(Math.max(1, Math.ceil(Number(recent.wait ?? 3600))), 'myDataExportLimit');
  const size = await db
    .selectFrom('household_documents')
    .select(sql<string | null>`sum(size_bytes)`.as('bytes'))
    .where('household_id', '=', householdId)
    .where('blob_key', 'is not', null)
    .executeTakeFirstOrThrow();
  if (Number(size.bytes ?? 0) > limits.maxBytes) throw conflict('myDataTooLarge');
}

/**
 * "Download my data": everything the portal holds about the caller's household, as one zip with a
 * summary in the caller's language. Only the household itself: an ambassador acting for it
 * (impersonation) is refused, since the archive is the household's whole record. Each download is
 * written to the privacy log (privacy_audit), which the archive itself includes.
 *
 * A download cannot stall its replica: the records are read first, then the zip is streamed with
 * one file read from the blob store at a time (compressed off the event loop) at the reader's pace.
 * Before a byte is sent it is refused when its documents add up past the cap (409), while the
 * household has another download running on any replica (429, a lease row that expires if that
 * replica dies) and past the hourly limit (429 with Retry-After).
 */
export async function exportMyData(deps: { db: Db; blobs: BlobStore; limits: MyDataLimits }, session: Session, requested?: string, now = new Date()): Promise<MyDataArchive> {
  if (session.realUserId) throw new HttpError(403, 'notAllowedWhileImpersonating');
  const { db } = deps;
  const household = await db.selectFrom('households').selectAll().where('head_user_id', '=', session.userId).executeTakeFirst();
  if (!household) throw notFound();
  const leaseId = await takeLease(db, household.id);
  if (!leaseId) throw new HttpError(429, 'myDataExportInProgress');
  try {
    await checkLimits(db, household.id, deps.limits);
    const lease = { renew: () => renewLease(db, household.id, leaseId), release: () => releaseLease(db, household.id, leaseId) };
    const body = zipStream(await archiveEntries(deps, session, household, requested, now, lease), now);
    // The entries free the lease before the archive's last bytes (or when it stops); this covers a stream never read.
    body.once('close', () => void lease.release().catch(() => undefined));
    return { fileName: `my-data-${now.toISOString().slice(0, 10)}.zip`, body };
  } catch (error) {
    await releaseLease(db, household.id, leaseId);
    throw error;
  }
}

/**
 * Reads every record of the household and writes the download to the privacy log; answers the
 * archive's files, each document and letter read from the blob store only when the zip asks for it.
 */
async function archiveEntries(
  deps: { db: Db; blobs: BlobStore },
  session: Session,
  household: { id: string; household_size: number; created_at: Date; language: string | null },
  requested: string | undefined,
  now: Date,
  lease: { renew: () => Promise<unknown>; release: () => Promise<unknown> },
): Promise<AsyncIterable<ZipEntry>> {
  const { db, blobs } = deps;
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'phone_number', 'first_name', 'last_name', 'preferred_language', 'notify_email', 'notify_sms', 'created_at'])
    .where('id', '=', session.userId)
    .executeTakeFirstOrThrow();
  const language: Language = isLanguage(requested) ? requested : isLanguage(user.preferred_language) ? user.preferred_language : 'en';
  const h = household.id;

  const [members, profile, assets, incomes, rental, tenancy] = await Promise.all([
    db.selectFrom('household_members').selectAll().where('household_id', '=', h).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('household_profiles').selectAll().where('household_id', '=', h).executeTakeFirst(),
    listAssets(db, h),
    readIncomes(db, h),
    db.selectFrom('rental_assistance').select(['details', 'updated_at']).where('household_id', '=', h).execute(),
    db.selectFrom('tenancies').selectAll().where('household_id', '=', h).executeTakeFirst(),
  ]);
  const profileFile = {
    account: user,
    household: { id: h, size: household.household_size, createdAt: household.created_at, language: household.language },
    // Identifiers leave the portal only as their last 4 digits, as everywhere else it shows them.
    members: members.map(({ ssn_encrypted: _s, itin_encrypted: _i, alien_number_encrypted: _a, household_id: _h, ...m }) => m),
    profile: profile ?? null,
    incomes: incomes.map((i) => ({ ...i.details, id: i.id })),
    assets,
    rentalAssistance: rental,
    tenancy: tenancy
      ? { ...tenancy, declared_annual_income: undefined, declared_annual_income_encrypted: undefined, declaredAnnualIncome: tenancy.declared_annual_income_encrypted ? Number(dataCipher().decrypt(tenancy.declared_annual_income_encrypted)) : tenancy.declared_annual_income }
      : null,
  };

  const applicationRows = await db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select(['a.id', 'a.log_number', 'o.name as opportunity', 'a.status', 'a.current_step', 'a.household_size', 'a.household_income', 'a.household_income_encrypted', 'a.applied_at', 'a.state_updated_at', 'a.channel', 'a.lottery_rank', 'a.purged_at', 'a.view'])
    .where('a.household_id', '=', h)
    .orderBy('a.applied_at')
    .orderBy('a.id')
    .execute();
  const applications = applicationRows.map(({ household_income: _p, household_income_encrypted: _e, view, ...a }) => ({
    ...a,
    householdIncome: a.purged_at ? null : declaredIncomeOf({ household_income: _p, household_income_encrypted: _e }),
    timeline: (view as { history?: unknown[] } | null)?.history ?? [],
    pendingTasks: (view as { pendingTasks?: unknown[] } | null)?.pendingTasks ?? [],
  }));
  const [recertifications, relocations] = await Promise.all([
    db.selectFrom('recertification_cases').select(['id', 'kind', 'status', 'stage', 'deadline', 'started_at', 'state_updated_at', 'view']).where('household_id', '=', h).orderBy('started_at').execute(),
    db.selectFrom('relocation_cases').select(['id', 'status', 'ends_at', 'started_at', 'state_updated_at', 'view']).where('household_id', '=', h).orderBy('started_at').execute(),
  ]);
  const caseIds = [...applicationRows.map((a) => a.id), ...recertifications.map((r) => r.id)];
  const certifications = await db.selectFrom('certification_records').select(['case_id', 'approved_at', 'facts_sealed']).where('household_id', '=', h).execute();

  // Documents the household uploaded or signed, and letters: those mailed to the household and the signed copies of its cases' letters.
  const documents = await db.selectFrom('household_documents').selectAll().where('household_id', '=', h).orderBy('uploaded_at').orderBy('id').execute();
  const mailed = await db.selectFrom('mailed_letters').select(['id', 'letter', 'language', 'blob_key', 'queued_at', 'mailed_at']).where('household_id', '=', h).orderBy('queued_at').execute();
  const signed = caseIds.length
    ? await db.selectFrom('signed_letters').select(['signed_key', 'case_kind', 'case_id', 'letter', 'signed_at']).where('case_id', 'in', caseIds).orderBy('signed_at').execute()
    : [];

  const messages = await db
    .selectFrom('chat_messages')
    .select(['id', 'organization_id', 'sender_side', 'kind', 'body_encrypted', 'document_id', 'deleted_at', 'created_at'])
    .where('household_id', '=', h)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const tickets = await db
    .selectFrom('support_tickets')
    .select(['id', 'category', 'status', 'created_at', 'last_activity_at', 'view'])
    .where((eb) => eb.or([eb('household_id', '=', h), eb('requester_user_id', '=', session.userId)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const grants = await db
    .selectFrom('access_grants as g')
    .leftJoin('organizations as o', 'o.id', 'g.organization_id')
    .select(['g.id', 'o.name as organization', 'g.status', 'g.channel', 'g.period_days', 'g.requested_at', 'g.granted_at', 'g.expires_at', 'g.ended_at'])
    .where('g.user_id', '=', session.userId)
    .orderBy('g.requested_at')
    .execute();
  const actions = await db
    .selectFrom('impersonation_audit')
    .select(['id', 'event', 'method', 'path', 'status_code', 'created_at'])
    .where('acting_user_id', '=', session.userId)
    .orderBy('id')
    .execute();
  const privacyLog = await db.selectFrom('privacy_audit').select(['action', 'application_id', 'detail', 'created_at']).where('household_id', '=', h).orderBy('id').execute();

  // Read before this download is logged: the archive holds the downloads before it.
  await db
    .insertInto('privacy_audit')
    .values({ action: 'export', household_id: h, actor_user_id: session.userId, detail: JSON.stringify({ language, documents: documents.length, letters: mailed.length + signed.length }) })
    .execute();

  const records: ZipEntry[] = [
    { name: 'profile.json', data: json(profileFile) },
    { name: 'applications.json', data: json(applications) },
    {
      name: 'cases.json',
      data: json({
        recertifications: recertifications.map(({ view, ...r }) => ({ ...r, timeline: (view as { history?: unknown[] } | null)?.history ?? [] })),
        relocations: relocations.map(({ view, ...r }) => ({ ...r, timeline: (view as { history?: unknown[] } | null)?.history ?? [] })),
        certifications: certifications.map((c) => ({ caseId: c.case_id, approvedAt: c.approved_at, facts: openJson(JSON.parse(c.facts_sealed)) })),
      }),
    },
    { name: 'letters.json', data: json({ mailed: mailed.map(({ blob_key: _b, ...l }) => l), signed: signed.map(({ signed_key: _k, ...l }) => l) }) },
    { name: 'documents.json', data: json(documents.map(({ blob_key: _b, ...d }) => d)) },
    { name: 'messages.json', data: json(messages.map(({ body_encrypted, ...m }) => ({ ...m, body: body_encrypted ? dataCipher().decrypt(body_encrypted) : null }))) },
    { name: 'tickets.json', data: json(tickets.map(({ view, ...t }) => ({ ...t, ...openJson<Record<string, unknown>>(view) }))) },
    { name: 'access.json', data: json({ grants, actionsTakenForYou: actions }) },
    { name: 'privacy-log.json', data: json(privacyLog) },
  ];

  const s = SUMMARY[language];
  const cases = recertifications.length + relocations.length;
  const summary = (documentFiles: number, letterFiles: number) =>
    [
      s.title,
      '',
      fill(s.generatedOn, { date: now.toISOString().slice(0, 10) }),
      fill(s.household, { reference: h }),
      '',
      s.contents,
      `- ${s.profile}`,
      `- ${fill(s.applications, { count: applications.length })}`,
      `- ${fill(s.cases, { count: cases })}`,
      `- ${fill(s.letters, { count: letterFiles })}`,
      `- ${fill(s.documents, { count: documentFiles })}`,
      `- ${fill(s.messages, { count: messages.length })}`,
      `- ${fill(s.tickets, { count: tickets.length })}`,
      `- ${fill(s.access, { count: grants.length, actions: actions.length })}`,
      `- ${s.audit}`,
      '',
      s.note,
      '',
    ].join('\n');

  /** One file at a time, read when the zip asks for it; a file gone from the store is left out. */
  async function* files(): AsyncGenerator<ZipEntry> {
    try {
      yield* readFiles();
    } finally {
      // Before the archive's end is written: once the download is complete, the household is free.
      await lease.release();
    }
  }
  async function* readFiles(): AsyncGenerator<ZipEntry> {
    let documentFiles = 0;
    let letterFiles = 0;
    for (const d of documents) {
      await lease.renew();
      const body = await blobOrNull(blobs, d.blob_key);
      if (!body) continue;
      documentFiles++;
      yield { name: `documents/${d.id}-${safeName(d.file_name)}`, data: body };
    }
    for (const l of mailed) {
      await lease.renew();
      const body = await blobOrNull(blobs, l.blob_key);
      if (!body) continue;
      letterFiles++;
      yield { name: `letters/mailed-${l.id}-${l.letter}.pdf`, data: body };
    }
    for (const [i, l] of signed.entries()) {
      await lease.renew();
      const body = await blobOrNull(blobs, l.signed_key);
      if (!body) continue;
      letterFiles++;
      yield { name: `letters/signed-${l.case_id}-${l.letter}-${i + 1}.pdf`, data: body };
    }
    yield* records;
    // Last, once the files actually found are counted.
    yield { name: 'summary.txt', data: summary(documentFiles, letterFiles) };
  }
  return files();
}
