import { BANK_ACCOUNT_TYPES } from './assets';
import { DAY } from './time';
import type { PayFrequency } from './income';
import { DATE_LABEL, MONEY_LABEL, amountsIn, anywhere, datesIn, field, first, headerName, labelled, text, type ExtractedField, type TextLine } from './extraction-text';

// The figures of the two documents the portal reads: a bank statement and a pay stub. Each field
// says how sure the reading is; nothing read here is saved until the resident confirms it.

export const EXTRACTABLE_DOCUMENT_TYPES = ['bank_statement', 'pay_stub'] as const;
export type ExtractableDocumentType = (typeof EXTRACTABLE_DOCUMENT_TYPES)[number];

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
  const days = Math.round((Date.parse(end) - Date.parse(start)) / DAY) + 1;
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
