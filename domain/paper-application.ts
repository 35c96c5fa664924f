import { z } from 'zod';
import { LANGUAGES } from './account';
import { AddressInput, MemberInput } from './household';
import { isoDate } from './fields';

/**
 * A paper application as the office types it from the mailed form (spec section 2: apply online or
 * by mail): the household's members and income under the same rules as online (MemberInput, and
 * IncomeInput once each member exists), its address and language, and the postmark. The scanned
 * form travels beside it as a file.
 */
export const PAPER_MEMBERS_MAX = 20;
export const PAPER_INCOMES_MAX = 40;

export const PaperApplicationInput = z.object({
  /** The head of household first (relationship 'self'), then the other members as listed on the form. */
  members: z.array(MemberInput).min(1, 'Required').max(PAPER_MEMBERS_MAX),
  /** Each income entry as online, naming its member by position in `members` instead of an id. */
  incomes: z
    .array(z.object({ memberIndex: z.number().int().min(0).max(PAPER_MEMBERS_MAX - 1), entry: z.record(z.string(), z.unknown()) }))
    .max(PAPER_INCOMES_MAX),
  /** Total yearly income of all members as written on the form (US dollars). */
  householdIncome: z.number().min(0).max(100_000_000),
  address: AddressInput,
  /** The language of the form, which the household's letters are written in. */
  language: z.enum(LANGUAGES),
  postmarkDate: z.string().date(),
});
export type PaperApplicationInput = z.infer<typeof PaperApplicationInput>;

/** What the office gets back: the new application's log number, for the form's margin. */
export interface PaperApplicationEntered {
  applicationId: string;
  householdId: string;
  logNumber: string;
  /** The first letter (with the claim code), queued to print and mail. */
  letterId: string;
}

/** The claim code printed in the first letter: 8 letters and digits without look-alikes, shown as two groups of four joined by a hyphen. */
export const CLAIM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A claim code is refused this many days after it was issued; the office can issue a new one (api/services/paper-office.ts). */
export const CLAIM_CODE_DAYS = 90;
/** The letter that carries a claim code issued again by the office. */
export const CLAIM_CODE_LETTER = 'claim-code';
/** The letters whose PDF prints a claim code: deleted once the office marks them mailed. */
export const LETTERS_WITH_CLAIM_CODE: readonly string[] = ['paper-received', CLAIM_CODE_LETTER];
/** The code of the letter, and the head of household's date of birth as written on the form: a code alone does not claim. */
export const ClaimInput = z.object({
  code: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase().replace(/[\s-]/g, ''))
    .pipe(z.string().regex(new RegExp(`^[${CLAIM_CODE_ALPHABET}]{8}$`), 'This claim code is not valid')),
  dateOfBirth: isoDate,
});

/** A claim code issued again: the old one no longer works; the new one goes by mail in a letter of its own. */
export interface ClaimCodeReissued {
  householdId: string;
  letterId: string;
  expiresAt: string;
}

/** A letter in the office's print queue. */
export interface MailedLetterRow {
  id: string;
  letter: string;
  language: string;
  logNumber: string | null;
  opportunityName: string | null;
  queuedAt: string;
  printedAt: string | null;
  mailedAt: string | null;
}

export const PrintQueueQuery = z.object({
  show: z.enum(['to_mail', 'all']).default('to_mail'),
  /** Cursor: `<queuedAt ISO>|<id>` of the last row of the previous page. */
  after: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const MarkLetterInput = z.object({ mark: z.enum(['printed', 'mailed']) });

/** A possible duplicate as the manager sees it: the two applications by log number and channel, never a name. */
export interface DuplicatePairRow {
  id: string;
  first: { applicationId: string; logNumber: string | null; channel: 'online' | 'paper'; appliedAt: string; status: string };
  second: { applicationId: string; logNumber: string | null; channel: 'online' | 'paper'; appliedAt: string; status: string };
  keptApplicationId: string | null;
  reason: string | null;
  decidedAt: string | null;
  createdAt: string;
}
