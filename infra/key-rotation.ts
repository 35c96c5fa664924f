import type { EncryptingBlobStore } from './blobs';
import { dataCipher, isSealedJson, openJson, openNumber, sealJson, sealNumber } from './data-keys';
import type { Db } from './db/database';
import { translationMemoryKey } from './translation-memory-key';

/**
 * Re-encryption of personal data at rest under the current key of the process's key ring
 * (infra/data-keys.ts): rows and files still plain (written before encryption) or sealed by an older
 * key are sealed again; what is current is left alone, so running it twice changes nothing.
 */
export interface RotationReport {
  incomes: number;
  tenancies: number;
  certifications: number;
  identifiers: number;
  files: number;
  filesChecked: number;
  /** Messages with the managing office (bodies) and support tickets (subject and sealed view). */
  chatMessages: number;
  tickets: number;
  /** Figures read from statements and pay stubs. */
  extractions: number;
  /** Translation memory rows: both texts resealed and the key re-hashed under the current key. */
  translations: number;
  /** Intake assistant conversations: their sealed state. */
  intakeConversations: number;
  /** Asset details (balances, institutions, last 4 digits, asset income). */
  assets: number;
  /** Household incomes declared when applying (`applications`). */
  declaredIncomes: number;
}

/** Income entries and declared tenancy incomes (cheap: the API runs it at start-up). */
export async function resealIncomes(db: Db): Promise<{ incomes: number; tenancies: number; certifications: number }> {
  const cipher = dataCipher();
  const stale = (v: string | null) => !v || cipher.isStale(v);
  let incomes = 0;
  const rows = await db.selectFrom('household_incomes').select(['id', 'amount', 'amount_encrypted', 'details']).execute();
  for (const row of rows) {
    if (!stale(row.amount_encrypted) && isSealedJson(row.details) && !cipher.isStale(row.details.$sealed) && row.amount === null) continue;
    await db
      .updateTable('household_incomes')
      .set({ amount: null, amount_encrypted: sealNumber(openNumber(row.amount_encrypted, row.amount) ?? 0), details: sealJson(openJson(row.details)) })
      .where('id', '=', row.id)
      .execute();
    incomes++;
  }
  let tenancies = 0;
  const leases = await db.selectFrom('tenancies').select(['household_id', 'declared_annual_income', 'declared_annual_income_encrypted']).execute();
  for (const t of leases) {
    const value = openNumber(t.declared_annual_income_encrypted, t.declared_annual_income);
    if (value === null || (!stale(t.declared_annual_income_encrypted) && t.declared_annual_income === null)) continue;
    await db
      .updateTable('tenancies')
      .set({ declared_annual_income: null, declared_annual_income_encrypted: sealNumber(value) })
      .where('household_id', '=', t.household_id)
      .execute();
    tenancies++;
  }
  // What approved recertifications certified (the case file): incomes and assets, sealed.
  let certifications = 0;
  const records = await db.selectFrom('certification_records').select(['case_id', 'facts_sealed']).execute();
  for (const r of records) {
    const stored: unknown = JSON.parse(r.facts_sealed);
    if (isSealedJson(stored) && !cipher.isStale(stored.$sealed)) continue;
    await db.updateTable('certification_records').set({ facts_sealed: sealJson(openJson(stored)) }).where('case_id', '=', r.case_id).execute();
    certifications++;
  }
  return { incomes, tenancies, certifications };
}

/** SSN, ITIN and alien registration numbers of household members. */
export async function resealIdentifiers(db: Db): Promise<number> {
  const cipher = dataCipher();
  let changed = 0;
  const rows = await db.selectFrom('household_members').select(['id', 'ssn_encrypted', 'itin_encrypted', 'alien_number_encrypted']).execute();
  for (const row of rows) {
    const update: Record<string, string> = {};
    for (const column of ['ssn_encrypted', 'itin_encrypted', 'alien_number_encrypted'] as const) {
      const value = row[column];
      if (value && cipher.isStale(value)) update[column] = cipher.encrypt(cipher.decrypt(value));
    }
    if (Object.keys(update).length === 0) continue;
    await db.updateTable('household_members').set(update).where('id', '=', row.id).execute();
    changed++;
  }
  return changed;
}

const BATCH = 500;

/**
 * Asset details and the incomes declared on applications, plain (written before they were sealed)
 * or under an older key, a batch at a time in id order: both tables grow with use. Cheap when
 * nothing is stale, so the API runs it at start-up too.
 */
export async function resealAssetsAndDeclaredIncomes(db: Db): Promise<{ assets: number; declaredIncomes: number }> {
  const cipher = dataCipher();
  let assets = 0;
  for (let after = ''; ; ) {
    const rows = await db.selectFrom('household_assets').select(['id', 'details']).where('id', '>', after || '00000000-0000-0000-0000-000000000000').orderBy('id').limit(BATCH).execute();
    for (const row of rows) {
      if (isSealedJson(row.details) && !cipher.isStale(row.details.$sealed)) continue;
      await db.updateTable('household_assets').set({ details: sealJson(openJson(row.details)) }).where('id', '=', row.id).execute();
      assets++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  let declaredIncomes = 0;
  for (let after = ''; ; ) {
    const rows = await db
      .selectFrom('applications')
      .select(['id', 'household_income', 'household_income_encrypted'])
      .where('id', '>', after || '00000000-0000-0000-0000-000000000000')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const value = openNumber(row.household_income_encrypted, row.household_income);
      // A purged application has neither: nothing to seal.
      if (value === null || (row.household_income === null && !cipher.isStale(row.household_income_encrypted!))) continue;
      await db.updateTable('applications').set({ household_income: null, household_income_encrypted: sealNumber(value) }).where('id', '=', row.id).execute();
      declaredIncomes++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return { assets, declaredIncomes };
}

/**
 * Chat bodies and ticket subjects and views, read in id order a batch at a time: these
 * tables grow with use. The ticket row is the projection's; a later projection seals with the
 * current key anyway.
 */
export async function resealSupport(db: Db): Promise<{ chatMessages: number; tickets: number }> {
  const cipher = dataCipher();
  let chatMessages = 0;
  for (let after = ''; ; ) {
    const rows = await db.selectFrom('chat_messages').select(['id', 'body_encrypted']).where('id', '>', after || '00000000-0000-0000-0000-000000000000').orderBy('id').limit(BATCH).execute();
    for (const row of rows) {
      if (!row.body_encrypted || !cipher.isStale(row.body_encrypted)) continue;
      await db.updateTable('chat_messages').set({ body_encrypted: cipher.encrypt(cipher.decrypt(row.body_encrypted)) }).where('id', '=', row.id).execute();
      chatMessages++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  let tickets = 0;
  for (let after = ''; ; ) {
    const rows = await db.selectFrom('support_tickets').select(['id', 'subject_encrypted', 'view']).where('id', '>', after || '00000000-0000-0000-0000-000000000000').orderBy('id').limit(BATCH).execute();
    for (const row of rows) {
      const staleView = !isSealedJson(row.view) || cipher.isStale(row.view.$sealed);
      if (!cipher.isStale(row.subject_encrypted) && !staleView) continue;
      await db
        .updateTable('support_tickets')
        .set({ subject_encrypted: cipher.isStale(row.subject_encrypted) ? cipher.encrypt(cipher.decrypt(row.subject_encrypted)) : row.subject_encrypted, view: sealJson(openJson(row.view)) })
        .where('id', '=', row.id)
        .execute();
      tickets++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return { chatMessages, tickets };
}

/** Figures read from bank statements and pay stubs, a batch at a time in id order. */
export async function resealExtractions(db: Db): Promise<number> {
  const cipher = dataCipher();
  let changed = 0;
  for (let after = ''; ; ) {
    const rows = await db
      .selectFrom('document_extractions')
      .select(['id', 'result_sealed'])
      .where('id', '>', after || '00000000-0000-0000-0000-000000000000')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      if (!row.result_sealed) continue;
      const stored: unknown = JSON.parse(row.result_sealed);
      if (isSealedJson(stored) && !cipher.isStale(stored.$sealed)) continue;
      await db.updateTable('document_extractions').set({ result_sealed: sealJson(openJson(stored)) }).where('id', '=', row.id).execute();
      changed++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return changed;
}

/**
 * The translation memory: a row sealed by an older key is sealed again and its key (an
 * HMAC under the data key, api/services/translator.ts) computed again from the original text.
 */
export async function resealTranslations(db: Db): Promise<number> {
  const cipher = dataCipher();
  let changed = 0;
  for (let after = ''; ; ) {
    const rows = await db.selectFrom('translation_memory').selectAll().where('text_hash', '>', after).orderBy('text_hash').limit(BATCH).execute();
    for (const row of rows) {
      if (!cipher.isStale(row.original_encrypted) && !cipher.isStale(row.translated_encrypted)) continue;
      const original = cipher.decrypt(row.original_encrypted);
      const textHash = translationMemoryKey(original, row.source, row.target);
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('translation_memory').where('text_hash', '=', row.text_hash).execute();
        await tx
          .insertInto('translation_memory')
          .values({ ...row, text_hash: textHash, original_encrypted: cipher.encrypt(original), translated_encrypted: cipher.encrypt(cipher.decrypt(row.translated_encrypted)) })
          .onConflict((oc) => oc.column('text_hash').doNothing())
          .execute();
      });
      changed++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.text_hash;
  }
  return changed;
}

/** The intake assistant's conversations: the state holds answers not saved yet. */
export async function resealIntake(db: Db): Promise<number> {
  const cipher = dataCipher();
  let changed = 0;
  const rows = await db.selectFrom('intake_conversations').select(['user_id', 'state']).execute();
  for (const row of rows) {
    if (isSealedJson(row.state) && !cipher.isStale(row.state.$sealed)) continue;
    await db.updateTable('intake_conversations').set({ state: sealJson(openJson(row.state)) }).where('user_id', '=', row.user_id).execute();
    changed++;
  }
  return changed;
}

/** Every object of the blob store (documents, letters, signatures, paper applications). */
export async function resealFiles(blobs: EncryptingBlobStore): Promise<{ files: number; filesChecked: number }> {
  let files = 0;
  let filesChecked = 0;
  for await (const key of blobs.list('')) {
    filesChecked++;
    if ((await blobs.reseal(key)) === 'resealed') files++;
  }
  return { files, filesChecked };
}

export async function rotateAll(db: Db, blobs: EncryptingBlobStore): Promise<RotationReport> {
  const { incomes, tenancies, certifications } = await resealIncomes(db);
  const identifiers = await resealIdentifiers(db);
  const { chatMessages, tickets } = await resealSupport(db);
  const extractions = await resealExtractions(db);
  const translations = await resealTranslations(db);
  const intakeConversations = await resealIntake(db);
  const { assets, declaredIncomes } = await resealAssetsAndDeclaredIncomes(db);
  const { files, filesChecked } = await resealFiles(blobs);
  return { incomes, tenancies, certifications, identifiers, files, filesChecked, chatMessages, tickets, extractions, translations, intakeConversations, assets, declaredIncomes };
}
