import { randomUUID } from 'node:crypto';
import { CLAIM_CODE_LETTER, type Language } from '../../domain';
import type { BlobStore } from '../blobs';
import { dataCipher } from '../data-keys';
import { recordIssuedSecret } from '../secret-ledger';
import type { Db } from '../db/database';
import { claimCodeExpiry, claimCodeHash, formatClaimCode, newClaimCode } from './claim-code';
import { letterLanguage, queueMailedLetter } from './mailed-letters';

interface Facts {
  opportunityName: string;
  logNumber: string;
  claimCode: string;
}

/** The letter that carries a claim code issued again by the office, in the household's language. */
const TEXT: Record<Language, (f: Facts) => { title: string; lines: string[] }> = {
  en: (f) => ({
    title: 'Your new claim code',
    lines: [
      `You asked for a new code to follow your application for ${f.opportunityName} (log number ${f.logNumber}) online.`,
      `Create an account on the Housing Portal, open "Claim a paper application" and enter this code with the date of birth of the head of household. Your claim code: ${f.claimCode}`,
      'Any code we sent you before no longer works. This one works for 90 days.',
    ],
  }),
  es: (f) => ({
    title: 'Su nuevo código de reclamo',
    lines: [
      `Pidió un nuevo código para seguir en línea su solicitud para ${f.opportunityName} (número de registro ${f.logNumber}).`,
      `Cree una cuenta en el Portal de Vivienda, abra "Reclamar una solicitud en papel" e ingrese este código con la fecha de nacimiento del jefe del hogar. Su código: ${f.claimCode}`,
      'Los códigos que le enviamos antes ya no funcionan. Este funciona durante 90 días.',
    ],
  }),
  zh: (f) => ({
    title: '您的新认领码',
    lines: [
      `您申请了新的认领码，以便在线查看您对 ${f.opportunityName} 的申请（登记号 ${f.logNumber}）。`,
      `请在住房门户注册账户，打开"认领纸质申请"，并输入此认领码和户主的出生日期。您的认领码：${f.claimCode}`,
      '我们之前寄给您的认领码已失效。此认领码在 90 天内有效。',
    ],
  }),
  bn: (f) => ({
    title: 'আপনার নতুন দাবি কোড',
    lines: [
      `${f.opportunityName}-এর জন্য আপনার আবেদন (লগ নম্বর ${f.logNumber}) অনলাইনে দেখতে আপনি একটি নতুন কোড চেয়েছেন।`,
      `হাউজিং পোর্টালে একটি অ্যাকাউন্ট খুলুন, "কাগজের আবেদন দাবি করুন" খুলুন এবং পরিবারের প্রধানের জন্মতারিখসহ এই কোডটি লিখুন। আপনার দাবি কোড: ${f.claimCode}`,
      'আগে পাঠানো কোনো কোড আর কাজ করবে না। এই কোডটি ৯০ দিন কাজ করবে।',
    ],
  }),
};

export const claimCodeLetter = (language: Language, facts: Facts) => TEXT[language](facts);

/**
 * A new claim code for a household without a login: the old code stops working at once, and the
 * new one goes in a letter of its own in the household's language, queued to print and mail for
 * `organizationId`. Null when the household has a login by now (it claimed meanwhile).
 */
export async function issueClaimCode(db: Db, blobs: BlobStore, input: { householdId: string; applicationId: string; organizationId: string }): Promise<{ letterId: string; expiresAt: Date } | null> {
  const application = await db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select(['a.log_number', 'o.name'])
    .where('a.id', '=', input.applicationId)
    .executeTakeFirstOrThrow();
  const code = newClaimCode();
  recordIssuedSecret('claim_code', formatClaimCode(code));
  const expiresAt = claimCodeExpiry();
  const household = await db
    .updateTable('households')
    .set({ claim_code_hash: claimCodeHash(code), claim_code_expires_at: expiresAt })
    .where('id', '=', input.householdId)
    .where('login', '=', 'none')
    .returning(['language', 'mailing_address_sealed'])
    .executeTakeFirst();
  if (!household) return null;
  const language = letterLanguage(household.language);
  const facts = { opportunityName: application.name, logNumber: application.log_number ?? input.applicationId, claimCode: formatClaimCode(code) };
  const letter = await queueMailedLetter(db, blobs, {
    organizationId: input.organizationId,
    householdId: input.householdId,
    applicationId: input.applicationId,
    letter: CLAIM_CODE_LETTER,
    content: claimCodeLetter(language, facts),
    language,
    address: household.mailing_address_sealed ? (JSON.parse(dataCipher().decrypt(household.mailing_address_sealed)) as string[]) : [],
    ...facts,
    // Each issue is a letter of its own: the code it prints is new.
    dedupeKey: `claim-code:${input.householdId}:${randomUUID()}`,
  });
  return { letterId: letter.id, expiresAt };
}

/**
 * When a letter is queued for a household without a login whose code has expired, the code is
 * issued again beside it, so the next mailing carries a code that works (spec: codes expire, the
 * next letter carries a new one).
 */
export async function renewExpiredClaimCode(db: Db, blobs: BlobStore, letterId: string, now = new Date()): Promise<{ letterId: string } | null> {
  const row = await db
    .selectFrom('mailed_letters as m')
    .innerJoin('households as h', 'h.id', 'm.household_id')
    .select(['m.household_id', 'm.application_id', 'm.organization_id', 'h.claim_code_expires_at'])
    .where('m.id', '=', letterId)
    .where('h.login', '=', 'none')
    .where('h.claim_code_expires_at', '<=', now)
    .executeTakeFirst();
  if (!row?.application_id) return null;
  const issued = await issueClaimCode(db, blobs, { householdId: row.household_id, applicationId: row.application_id, organizationId: row.organization_id });
  return issued ? { letterId: issued.letterId } : null;
}
