import { z } from 'zod';
import { AssetInput, BANK_ACCOUNT_TYPES } from './assets';
import { REQUIRED, uuid } from './fields';
import { FORM_MESSAGES } from './form-messages';
import { IncomeInput, type PayFrequency } from './income';

/**
 * Issue 19 item 3: the figures of an uploaded bank statement or pay stub, read from its text (a
 * PDF's own text, or OCR of a scan) by rules that look for labels, not positions, so they work for
 * a label and its value on one line, a value under its label, and a table of labels over values.
 * Each field says how sure the reading is; below CONFIRM_BELOW it is marked for the resident to
 * check. Nothing read here is saved until the resident confirms it (SaveAiExtractedData). The
 * reading proposes figures only: it says nothing about eligibility.
 */
export const EXTRACTABLE_DOCUMENT_TYPES = ['bank_statement', 'pay_stub'] as const;
export type ExtractableDocumentType = (typeof EXTRACTABLE_DOCUMENT_TYPES)[number];
export const EXTRACTION_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

/** A field read with less confidence than this is marked for confirmation. */
export const CONFIRM_BELOW = 0.8;

/** One line of a document's text, with how sure its reading is (1 for a PDF's own text, OCR's own measure for a scan). */
export interface TextLine {
  text: string;
  confidence: number;
}

export interface ExtractedField<T> {
  value: T | null;
  /** 0..1: how sure the reading is (0 when nothing was found). */
  confidence: number;
  /** True when the resident should look at this one closely (low confidence or not found). */
  confirm: boolean;
}

export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

export interface BankStatementFields {
  institution: ExtractedField<string>;
  accountType: ExtractedField<BankAccountType>;
  last4: ExtractedField<string>;
  balance: ExtractedField<number>;
  statementDate: ExtractedField<string>;
}

export interface PayStubFields {
  employerName: ExtractedField<string>;
  payDate: ExtractedField<string>;
  periodStart: ExtractedField<string>;
  periodEnd: ExtractedField<string>;
  grossPay: ExtractedField<number>;
  frequency: ExtractedField<PayFrequency>;
}

export type ExtractedFields =
  | { documentType: 'bank_statement'; fields: BankStatementFields }
  | { documentType: 'pay_stub'; fields: PayStubFields };

/** What GetAiExtractedData answers for one document. */
export interface ExtractionView {
  id: string;
  documentId: string;
  documentType: ExtractableDocumentType;
  status: ExtractionStatus;
  /** How the text was read (null while pending or failed). */
  source: 'pdf_text' | 'ocr' | null;
  /** Fields of the document's type (null while pending or failed). */
  fields: BankStatementFields | PayStubFields | null;
  /** Set once the resident confirmed and saved the figures. */
  confirmedAt: string | null;
  /** Why the reading failed, in words for the resident (null unless failed). */
  failure: string | null;
}

export const EXTRACTION_MESSAGES = {
  notExtractable: 'Figures can only be read from a bank statement or a pay stub',
  notReady: 'The figures of this document are not read yet',
  wrongEntry: 'A bank statement saves a bank account; a pay stub saves an employment income',
  unreadable: 'We could not read figures from this file. Please enter them yourself.',
  duplicateDocument: 'Each document may appear only once',
} as const;

// ---------------------------------------------------------------------------------------------
// Values in text

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_WORD = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE_PATTERNS: { re: RegExp; read: (m: RegExpExecArray) => [number, number, number] }[] = [
  { re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, read: (m) => [+m[1]!, +m[2]!, +m[3]!] },
  { re: /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/g, read: (m) => [year(m[3]!), +m[1]!, +m[2]!] },
  { re: new RegExp(`\\b${MONTH_WORD}\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'gi'), read: (m) => [+m[3]!, month(m[1]!), +m[2]!] },
  { re: new RegExp(`\\b(\\d{1,2})\\s+${MONTH_WORD},?\\s+(\\d{4})\\b`, 'gi'), read: (m) => [+m[3]!, month(m[2]!), +m[1]!] },
];
function year(y: string): number {
  return y.length === 2 ? 2000 + Number(y) : Number(y);
}
function month(word: string): number {
  return MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
}
function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1990 || y > 2100) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

/** Every date in a piece of text, in the order they appear (ISO YYYY-MM-DD). */
export function datesIn(text: string): string[] {
  const found: { at: number; value: string }[] = [];
  const taken: [number, number][] = [];
  for (const { re, read } of DATE_PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      const value = iso(...read(m));
      if (value) {
        found.push({ at: start, value });
        taken.push([start, end]);
      }
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.value);
}

const MONEY = /(?<![\d.,/-])(\(?-?\s?\$?\s?\d{1,3}(?:,\d{3})+(?:\.\d{2})?\)?|\(?-?\s?\$?\s?\d+\.\d{2}\)?)(?![\d/])/g;
/** Every amount of money in a piece of text ("$1,234.56", "1 234.56", "(12.00)" is negative). */
export function amountsIn(text: string): number[] {
  const out: number[] = [];
  MONEY.lastIndex = 0;
  for (let m = MONEY.exec(text); m; m = MONEY.exec(text)) {
    const raw = m[1]!;
    const negative = raw.includes('-') || (raw.startsWith('(') && raw.endsWith(')'));
    const n = Number(raw.replace(/[^\d.]/g, ''));
    if (Number.isFinite(n)) out.push(negative ? -n : n);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Labels and their values

interface Found<T> {
  value: T;
  /** The rule's own certainty, before the reading's. */
  certainty: number;
  line: TextLine;
}

/** A line's text with the label matched removed, and where the rest starts. */
function afterLabel(text: string, label: RegExp): string | null {
  const m = new RegExp(label.source, 'i').exec(text);
  if (!m) return null;
  return text.slice(m.index + m[0].length).replace(/^\s*[:#.\-–]?\s*/, '');
}

/**
 * The value of a label, wherever it is: on the label's own line after it; or on the next line,
 * either right under it (a label above its value) or as the same column of a table (a row of
 * labels above a row of values, told apart by their order, so OCR's lost spacing does not matter).
 */
function labelled<T>(lines: TextLine[], label: RegExp, read: (text: string) => T[], certainty: number, columns?: RegExp): Found<T> | null {
  for (const [i, line] of lines.entries()) {
    const rest = afterLabel(line.text, label);
    if (rest === null) continue;
    const same = read(rest);
    if (same.length > 0) return { value: same[0]!, certainty, line };
    const next = lines[i + 1];
    if (!next) continue;
    const below = read(next.text);
    if (below.length === 0) continue;
    // A table: the label is the k-th of several of this kind on its line; take the k-th value.
    const column = columns ? columnOf(line.text, label, columns) : null;
    const value = column !== null && below.length > column ? below[column]! : below[0]!;
    return { value, certainty: certainty - 0.05, line: next };
  }
  return null;
}

/** Labels that head a date column (a row of dates under "Period beginning  Period ending  Check date"). */
const DATE_LABEL = /period\s+(start|beginning|begin|from|end|ending)|(pay|check|payment|deposit|advice|statement|closing)\s+date|date\s+paid|pay\s+period|statement\s+period/gi;
/** Labels that head a money column, to tell "Current  YTD" and "Beginning  Ending balance" columns apart. */
const MONEY_LABEL = /(beginning|opening|previous|ending|closing|new|current|available)\s+balance|gross\s+pay|net\s+pay|deductions|taxes|ytd|year\s+to\s+date|deposits|withdrawals/gi;
function columnOf(text: string, label: RegExp, kinds: RegExp): number | null {
  const at = new RegExp(label.source, 'i').exec(text)?.index;
  if (at === undefined) return null;
  kinds.lastIndex = 0;
  let k = 0;
  for (let m = kinds.exec(text); m; m = kinds.exec(text)) {
    if (m.index >= at) return k;
    k++;
  }
  return null;
}

function field<T>(found: Found<T> | null): ExtractedField<T> {
  if (!found) return { value: null, confidence: 0, confirm: true };
  // An OCR line read with 90% certainty costs 0.05; one read with 60% costs 0.2.
  const confidence = Math.round(Math.max(0, Math.min(1, found.certainty - (1 - found.line.confidence) * 0.5)) * 100) / 100;
  return { value: found.value, confidence, confirm: confidence < CONFIRM_BELOW };
}

function first<T>(...candidates: (() => Found<T> | null)[]): Found<T> | null {
  for (const c of candidates) {
    const f = c();
    if (f) return f;
  }
  return null;
}

const text = (max = 120) => (s: string) => {
  const v = s.replace(/\s{2,}.*$/, '').replace(/[|]/g, '').trim().slice(0, max);
  return /[\p{L}]/u.test(v) ? [v] : [];
};
const lastFourOf = (s: string): string[] => {
  // A masked number ("XXXX-XXXX-4821", "******7730") or "ending in 0192" first, then a plain number (not a date).
  const masked = /(?:[x*•#]{2,}[\s-]?)+(\d{4})\b/i.exec(s) ?? /ending\s+(?:in\s+)?(\d{4})\b/i.exec(s);
  if (masked) return [masked[1]!];
  const digits = /(?<![\d/.,-])(\d[\d -]{2,}\d)(?![\d/.,])/.exec(s)?.[1]?.replace(/\D/g, '') ?? '';
  return digits.length >= 4 ? [digits.slice(-4)] : [];
};
const ACCOUNT_TYPE_WORDS: [RegExp, BankAccountType][] = [
  [/\bcertificate\s+of\s+deposit\b|\bCD\b/i, 'certificate_of_deposit'],
  [/\bsavings?\b/i, 'savings'],
  [/\bchecking\b|\bchequing\b/i, 'checking'],
];
const accountTypeOf = (s: string): BankAccountType[] => {
  const hit = ACCOUNT_TYPE_WORDS.map(([re, type]) => ({ at: re.exec(s)?.index ?? -1, type })).filter((h) => h.at >= 0).sort((a, b) => a.at - b.at);
  return hit.length ? [hit[0]!.type] : [];
};

const INSTITUTION_WORDS = /\b(bank|credit\s+union|savings|federal|financial|trust|bancorp|banco)\b/i;
const COMPANY_WORDS = /\b(inc|llc|l\.l\.c|corp|corporation|co|company|ltd|group|services|associates|enterprises|hospital|university|school|district|city|county|restaurant|market|store)\b\.?/i;
const NOT_A_NAME = /\b(statement|account|page|period|date|balance|summary|earnings|pay\s*stub|payslip|pay\s+statement|earnings\s+statement|customer|member|employee|address|street|ave|road|po\s+box)\b/i;

/** A line that could be a name: has letters, no amounts or dates, few digits. */
function nameLike(line: TextLine): string | null {
  // "City Hospital - pay stub": the name before a dash or bar that starts a description.
  const t = line.text.replace(/\s{2,}.*$/, '').split(/\s+[-–|]\s+/)[0]!.trim();
  if (!/\p{L}{2,}/u.test(t) || /\d{2,}/.test(t) || NOT_A_NAME.test(t) || t.length > 80) return null;
  return t;
}

function headerName(lines: TextLine[], words: RegExp, certainty: number, fallback: number): Found<string> | null {
  const top = lines.slice(0, 6);
  for (const line of top) {
    const name = nameLike(line);
    if (name && words.test(name)) return { value: name, certainty, line };
  }
  for (const line of top) {
    const name = nameLike(line);
    if (name) return { value: name, certainty: fallback, line };
  }
  return null;
}

function anywhere<T>(lines: TextLine[], read: (text: string) => T[], certainty: number, only?: RegExp): Found<T> | null {
  for (const line of lines) {
    if (only && !only.test(line.text)) continue;
    const values = read(line.text);
    if (values.length) return { value: values[0]!, certainty, line };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The two documents

export function readBankStatement(lines: TextLine[]): BankStatementFields {
  const institution = first(
    () => labelled(lines, /\b(financial\s+institution|institution|bank\s+name|bank)\s*:/, text(), 0.95),
    () => headerName(lines, INSTITUTION_WORDS, 0.85, 0.55),
  );
  const accountType = first(
    () => labelled(lines, /\baccount\s+type\b/, accountTypeOf, 0.95),
    () => anywhere(lines, accountTypeOf, 0.85, /\baccount\b|^\s*(certificate\s+of\s+deposit|savings|checking)\s*$/i),
    () => anywhere(lines, accountTypeOf, 0.7),
  );
  const last4 = first(
    () => labelled(lines, /\b(account\s+(number|no\.?|#)|acct\.?\s*(number|no\.?|#)?|account\s+ending(\s+in)?)/, lastFourOf, 0.95),
    () => anywhere(lines, (s) => (/[x*•]{3,}\s?\d{4}\b/i.test(s) ? lastFourOf(s) : []), 0.75),
  );
  const balance = first(
    () => labelled(lines, /\b((ending|closing|new|statement)\s+balance|balance\s+(as\s+of|on))\b/, amountsIn, 0.95, MONEY_LABEL),
    () => labelled(lines, /\b(current|available)\s+balance\b/, amountsIn, 0.85, MONEY_LABEL),
    () => labelled(lines, /\bbalance\b/, amountsIn, 0.7),
  );
  const statementDate = first(
    () => labelled(lines, /\b(statement\s+date|closing\s+date|as\s+of)\b/, datesIn, 0.95, DATE_LABEL),
    () => labelled(lines, /\b(statement\s+period|period|for\s+the\s+period)\b/, (s) => datesIn(s).slice(-1), 0.85),
    () => labelled(lines, /\b(ending|closing|new)\s+balance\s+(on|as\s+of)\b/, datesIn, 0.85),
  );
  return { institution: field(institution), accountType: field(accountType), last4: field(last4), balance: field(balance), statementDate: field(statementDate) };
}

const FREQUENCY_WORDS: [RegExp, PayFrequency][] = [
  [/\bbi-?\s?weekly\b|\bevery\s+(two|2)\s+weeks\b|\bfortnightly\b/i, 'bi_weekly'],
  [/\bsemi-?\s?monthly\b|\btwice\s+a\s+month\b/i, 'semimonthly'],
  [/\bweekly\b/i, 'weekly'],
  [/\bmonthly\b/i, 'monthly'],
];
const frequencyOf = (s: string): PayFrequency[] => {
  const hit = FREQUENCY_WORDS.find(([re]) => re.test(s));
  return hit ? [hit[1]] : [];
};

/** The pay frequency a pay period's length implies (both ends included), or null. */
export function frequencyOfPeriod(start: string, end: string): PayFrequency | null {
  const days = Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;
  if (days >= 6 && days <= 8) return 'weekly';
  if (days >= 13 && days <= 15 && !(start.endsWith('-01') || start.endsWith('-16'))) return 'bi_weekly';
  if (days >= 13 && days <= 16) return 'semimonthly';
  if (days >= 28 && days <= 31) return 'monthly';
  return null;
}

export function readPayStub(lines: TextLine[]): PayStubFields {
  const employerName = first(
    () => labelled(lines, /\b(employer(\s+name)?|company(\s+name)?|paid\s+by)\s*:/, text(), 0.95),
    () => headerName(lines, COMPANY_WORDS, 0.85, 0.55),
  );
  const payDate = first(
    () => labelled(lines, /\b(pay\s*date|check\s+date|payment\s+date|date\s+paid|pay\s+day|deposit\s+date|advice\s+date)\b/, datesIn, 0.95, DATE_LABEL),
  );
  const periodBoth = labelled(lines, /\b(pay\s+period|period(\s+covered)?|earnings\s+period)\b(?!\s+(begin|start|end))/, (s) => {
    const d = datesIn(s);
    return d.length >= 2 ? [[d[0]!, d[1]!] as const] : [];
  }, 0.95);
  const periodStart = first(
    () => (periodBoth ? { ...periodBoth, value: periodBoth.value[0] } : null),
    () => labelled(lines, /\b(period\s+(start|beginning|begin|from)|start\s+date|from)\b/, datesIn, 0.9, DATE_LABEL),
  );
  const periodEnd = first(
    () => (periodBoth ? { ...periodBoth, value: periodBoth.value[1] } : null),
    () => labelled(lines, /\b(period\s+(end|ending)|end\s+date|through|to)\b/, datesIn, 0.9, DATE_LABEL),
  );
  // "Gross pay  2,000.00  24,000.00": the current amount comes before the year-to-date one.
  const grossPay = first(
    () => labelled(lines, /\b(total\s+)?gross\s+(pay|earnings|wages|amount)\b|\bgross\b/, (s) => amountsIn(s).filter((n) => n > 0), 0.95, MONEY_LABEL),
    () => labelled(lines, /\btotal\s+earnings\b/, (s) => amountsIn(s).filter((n) => n > 0), 0.8),
  );
  const stated = labelled(lines, /\b(pay\s+frequency|frequency|pay\s+schedule|pay\s+cycle)\b/, frequencyOf, 0.95);
  const implied = periodStart && periodEnd ? frequencyOfPeriod(periodStart.value, periodEnd.value) : null;
  const frequency = stated ?? (implied && periodStart ? { value: implied, certainty: 0.85, line: periodStart.line } : null);
  return {
    employerName: field(employerName),
    payDate: field(payDate),
    periodStart: field(periodStart),
    periodEnd: field(periodEnd),
    grossPay: field(grossPay),
    frequency: field(frequency),
  };
}

export function readFields(documentType: ExtractableDocumentType, lines: TextLine[]): ExtractedFields {
  return documentType === 'bank_statement'
    ? { documentType, fields: readBankStatement(lines) }
    : { documentType, fields: readPayStub(lines) };
}

// ---------------------------------------------------------------------------------------------
// The calls (spec section 7: /api/v1/account-details and the HouseholdAssets AI-extraction calls)

/** /api/v1/account-details: read this document's figures (an activity does it; the answer is 202 pending). */
export const AccountDetailsInput = z.object({ documentId: uuid });
export const ExtractionQuery = z.object({ documentId: z.string(REQUIRED).uuid('Invalid id'), householdId: z.string().uuid('Invalid id').optional() });

/**
 * SaveAiExtractedData: the figures as the resident confirmed or corrected them, written through
 * the same schemas (and so the same messages) as the asset and income forms: a bank statement as a
 * bank account, a pay stub as an employment income.
 */
export const SaveExtractedInput = z
  .object({ documentId: uuid, asset: AssetInput.optional(), income: IncomeInput.optional() })
  .refine((v) => (v.asset ? 1 : 0) + (v.income ? 1 : 0) === 1, { message: REQUIRED, path: ['asset'] });
export type SaveExtractedInput = z.infer<typeof SaveExtractedInput>;
/** SaveAiExtractedDataMultiple: several documents at once (bank statements: up to 6, section 5). */
export const SaveExtractedMultipleInput = z
  .array(SaveExtractedInput)
  .min(1, FORM_MESSAGES.atLeastOneEntry)
  .max(12)
  .refine((all) => new Set(all.map((s) => s.documentId)).size === all.length, EXTRACTION_MESSAGES.duplicateDocument);

/** GetExtractedEmployer: the employer read from a pay stub next to the saved one (the section-5 prompt). */
export interface ExtractedEmployerView {
  documentId: string;
  onPayStub: string | null;
  confidence: number;
  savedEmployerName: string | null;
  incomeId: string | null;
  /** True when the stub names another employer than the saved one: ask whether to update it. */
  differs: boolean;
}
