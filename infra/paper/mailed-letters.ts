import { randomUUID } from 'node:crypto';
import type { CaseNotice, Language } from '../../domain';
import type { BlobStore } from '../blobs';
import { dataCipher } from '../data-keys';
import type { Db } from '../db/database';
import { renderLetterPdf } from '../letters/pdf';
import { findTemplate } from '../notifications/templates';

/**
 * Letters to a household without a login: rendered in its language as PDFs, stored like every
 * letter (sealed by the blob store), and queued for the office to print and mail. Each is queued
 * once per dedupe key, so a retried activity or request queues nothing twice.
 */
export type MailedLetterKind = 'paper-received' | 'duplicate-withdrawn';

interface LetterFacts {
  opportunityName: string;
  logNumber: string;
  /** Printed in the first letter only: the household claims its application online with it. */
  claimCode?: string;
}

const TEXT: Record<Language, Record<MailedLetterKind, (f: LetterFacts) => { title: string; lines: string[] }>> = {
  en: {
    'paper-received': (f) => ({
      title: 'We received your paper application',
      lines: [
        `Your application for ${f.opportunityName} is entered in the lottery with log number ${f.logNumber}.`,
        'It takes part in the draw exactly like an application made online.',
        ...(f.claimCode ? [`To follow it online, create an account on the Housing Portal and open "Claim a paper application". Your claim code: ${f.claimCode}`] : []),
        'Keep this letter. We will write to you after the draw.',
      ],
    }),
    'duplicate-withdrawn': (f) => ({
      title: 'One of your applications was withdrawn',
      lines: [`Your household applied more than once to ${f.opportunityName}. Only one application per household is allowed, so application ${f.logNumber} was withdrawn.`, 'Your other application stays in the lottery.'],
    }),
  },
  es: {
    'paper-received': (f) => ({
      title: 'Recibimos su solicitud en papel',
      lines: [
        `Su solicitud para ${f.opportunityName} está inscrita en la lotería con el número de registro ${f.logNumber}.`,
        'Participa en el sorteo exactamente igual que una solicitud hecha en línea.',
        ...(f.claimCode ? [`Para seguirla en línea, cree una cuenta en el Portal de Vivienda y abra "Reclamar una solicitud en papel". Su código: ${f.claimCode}`] : []),
        'Guarde esta carta. Le escribiremos después del sorteo.',
      ],
    }),
    'duplicate-withdrawn': (f) => ({
      title: 'Se retiró una de sus solicitudes',
      lines: [`Su hogar presentó más de una solicitud para ${f.opportunityName}. Solo se permite una solicitud por hogar, por lo que se retiró la solicitud ${f.logNumber}.`, 'Su otra solicitud sigue en la lotería.'],
    }),
  },
  zh: {
    'paper-received': (f) => ({
      title: '我们已收到您的纸质申请',
      lines: [
        `您申请 ${f.opportunityName} 的申请已加入抽签，登记号为 ${f.logNumber}。`,
        '它与在线申请完全一样参加抽签。',
        ...(f.claimCode ? [`如需在线查看，请在住房门户注册账户并打开"认领纸质申请"。您的认领码：${f.claimCode}`] : []),
        '请保留此信。抽签后我们会再写信给您。',
      ],
    }),
    'duplicate-withdrawn': (f) => ({
      title: '您的一份申请已被撤回',
      lines: [`您的家庭为 ${f.opportunityName} 提交了不止一份申请。每个家庭只能提交一份申请，因此申请 ${f.logNumber} 已被撤回。`, '您的另一份申请仍在抽签中。'],
    }),
  },
  bn: {
    'paper-received': (f) => ({
      title: 'আমরা আপনার কাগজের আবেদন পেয়েছি',
      lines: [
        `${f.opportunityName}-এর জন্য আপনার আবেদন লগ নম্বর ${f.logNumber} সহ লটারিতে যুক্ত হয়েছে।`,
        'এটি অনলাইনে করা আবেদনের মতোই লটারিতে অংশ নেয়।',
        ...(f.claimCode ? [`অনলাইনে দেখতে, হাউজিং পোর্টালে একটি অ্যাকাউন্ট খুলুন এবং "কাগজের আবেদন দাবি করুন" খুলুন। আপনার দাবি কোড: ${f.claimCode}`] : []),
        'এই চিঠিটি রেখে দিন। লটারির পরে আমরা আপনাকে লিখব।',
      ],
    }),
    'duplicate-withdrawn': (f) => ({
      title: 'আপনার একটি আবেদন প্রত্যাহার করা হয়েছে',
      lines: [`আপনার পরিবার ${f.opportunityName}-এর জন্য একাধিক আবেদন করেছে। প্রতি পরিবার একটি আবেদনই করতে পারে, তাই আবেদন ${f.logNumber} প্রত্যাহার করা হয়েছে।`, 'আপনার অন্য আবেদনটি লটারিতে থাকছে।'],
    }),
  },
};

const LANGUAGES: readonly Language[] = ['en', 'es', 'zh', 'bn'];
export const letterLanguage = (value: string | null | undefined): Language => (LANGUAGES.includes(value as Language) ? (value as Language) : 'en');

export interface QueueLetterInput extends LetterFacts {
  organizationId: string;
  householdId: string;
  applicationId: string | null;
  /** One of the letters above, or the name of a notice template whose text is given as `content`. */
  letter: MailedLetterKind | string;
  content?: { title: string; lines: string[] };
  language: Language;
  /** The household's mailing address, printed at the top (never stored beside the letter). */
  address: string[];
  dedupeKey: string;
}

export async function queueMailedLetter(db: Db, blobs: BlobStore, input: QueueLetterInput): Promise<{ id: string; queued: boolean }> {
  const existing = await db.selectFrom('mailed_letters').select('id').where('dedupe_key', '=', input.dedupeKey).executeTakeFirst();
  if (existing) return { id: existing.id, queued: false };
  const text = input.content ?? TEXT[input.language][input.letter as MailedLetterKind](input);
  const pdf = await renderLetterPdf({
    language: input.language,
    title: text.title,
    subtitle: input.opportunityName,
    sections: [...(input.address.length > 0 ? [{ lines: input.address }] : []), { lines: text.lines }],
    signatureHeading: '',
    signers: [],
  });
  const key = `letters/mail/${randomUUID()}.pdf`;
  await blobs.put(key, pdf, 'application/pdf');
  let row: { id: string } | undefined;
  try {
    row = await db
      .insertInto('mailed_letters')
      .values({
        organization_id: input.organizationId,
        household_id: input.householdId,
        application_id: input.applicationId,
        letter: input.letter,
        language: input.language,
        blob_key: key,
        dedupe_key: input.dedupeKey,
        queued_at: new Date(),
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .executeTakeFirst();
  } catch (error) {
    // Not queued: no PDF stays behind without its row.
    await blobs.delete(key).catch(() => undefined);
    throw error;
  }
  if (row) return { id: row.id, queued: true };
  // A concurrent attempt queued it first: its row stands (this PDF is left unreferenced).
  await blobs.delete(key);
  const first = await db.selectFrom('mailed_letters').select('id').where('dedupe_key', '=', input.dedupeKey).executeTakeFirstOrThrow();
  return { id: first.id, queued: false };
}

/** The mailing lines of a household's profile address (the mailing address when it differs). */
function profileMailingLines(address: Record<string, unknown> | null | undefined): string[] {
  if (!address) return [];
  const get = (key: string) => (typeof address[key] === 'string' ? (address[key] as string).trim() : '');
  const mailing = address.mailingSameAsLiving === false;
  const pick = (living: string, other: string) => get(mailing ? other : living);
  const cityLine = [pick('city', 'mailingCity'), pick('state', 'mailingState'), pick('zip', 'mailingZip')].filter(Boolean).join(' ');
  return [pick('line1', 'mailingLine1'), pick('line2', 'mailingLine2'), cityLine].filter(Boolean);
}

/**
 * A case's notice as a letter in the household's language, queued for the office to print and
 * mail (once per notice): for the head of a household without a login, and, with `anyLogin`, for
 * one whose head chose neither email nor text messages. Answers null when there is no such
 * household (the notice goes by email as usual).
 */
export async function queueNoticeLetter(db: Db, blobs: BlobStore, notice: CaseNotice, options: { anyLogin?: boolean; language?: string } = {}): Promise<{ id: string } | null> {
  let query = db
    .selectFrom('households as h')
    .leftJoin('household_profiles as p', 'p.household_id', 'h.id')
    .select(['h.id', 'h.organization_id', 'h.language', 'h.mailing_address_sealed', 'p.address'])
    .where('h.head_user_id', '=', notice.userId);
  if (!options.anyLogin) query = query.where('h.login', '=', 'none');
  const household = await query.executeTakeFirst();
  const template = findTemplate(notice.template);
  if (!household || !template) return null;
  const language = letterLanguage(household.language ?? options.language);
  const message = template.render(language, notice.params, { baseUrl: '' });
  const applicationId = typeof notice.params.applicationId === 'string' ? notice.params.applicationId : null;
  const opportunity = applicationId
    ? await db.selectFrom('applications as a').innerJoin('opportunities as o', 'o.id', 'a.opportunity_id').select(['o.name', 'a.log_number', 'a.organization_id']).where('a.id', '=', applicationId).executeTakeFirst()
    : undefined;
  // The office whose case it is prints and mails its letter; the household's own organisation only
  // for a notice of no case.
  const organizationId = opportunity?.organization_id ?? household.organization_id;
  if (!organizationId) return null;
  const address = household.mailing_address_sealed ? (JSON.parse(dataCipher().decrypt(household.mailing_address_sealed)) as string[]) : profileMailingLines(household.address);
  const letter = await queueMailedLetter(db, blobs, {
    organizationId,
    householdId: household.id,
    applicationId: opportunity ? applicationId : null,
    letter: notice.template,
    content: { title: message.subject, lines: message.text.split('\n').filter((l) => l.trim() !== '') },
    language,
    address,
    opportunityName: opportunity?.name ?? '',
    logNumber: opportunity?.log_number ?? '',
    dedupeKey: `notice:${notice.dedupeKey}`,
  });
  return { id: letter.id };
}
