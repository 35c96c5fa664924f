import { BANK_MESSAGES } from './assets';
import { DOCUMENT_MESSAGES } from './documents';
import { DATE_MESSAGE, NUMBER_MESSAGE, REASON_MESSAGE, REQUIRED } from './fields';
import { FORM_MESSAGES } from './form-messages';
import { MEMBER_MESSAGES } from './household';
import { OPPORTUNITY_MESSAGES } from './opportunity-messages';
import { ZERO_INCOME_MESSAGES } from './income';
import { PAY_STUB_MESSAGES } from './pay-stubs';
import { SUPPORT_MESSAGES } from './support-ticket';
// Figures read from statements and pay stubs
import { EXTRACTION_MESSAGES } from './extraction';

/**
 * Every validation text a shared schema or upload check can give (spec section 5), by a stable
 * code. The web app shows `common:validation.<code>` in the reader's language; a text missing here
 * is shown as the generic `validation.invalid`, never in English (tests/web/validation-texts.test.ts).
 * The texts of the spec's error catalogue (section 8) are translated by their own codes
 * (domain/messages.ts, `common:errors.<code>`).
 */
export const VALIDATION_MESSAGES = {
  required: REQUIRED,
  number: NUMBER_MESSAGE,
  date: DATE_MESSAGE,
  reason: REASON_MESSAGE,
  ...MEMBER_MESSAGES,
  institution: BANK_MESSAGES.institution,
  ...FORM_MESSAGES,
  ...SUPPORT_MESSAGES,
  ...OPPORTUNITY_MESSAGES,
  zeroExplanation: ZERO_INCOME_MESSAGES.explanation,
  noValidIncome: ZERO_INCOME_MESSAGES.noValidIncome,
  allZero: ZERO_INCOME_MESSAGES.allZero,
  zeroIncomeLookAhead: ZERO_INCOME_MESSAGES.lookAhead,
  bankStatements: DOCUMENT_MESSAGES.bankStatements,
  retirementStatement: DOCUMENT_MESSAGES.retirementStatement,
  payStubs: DOCUMENT_MESSAGES.payStubs,
  fileRequired: DOCUMENT_MESSAGES.fileRequired,
  fileNameRequired: DOCUMENT_MESSAGES.fileNameRequired,
  typeRequired: DOCUMENT_MESSAGES.typeRequired,
  fileType: DOCUMENT_MESSAGES.fileType,
  payDateRequired: PAY_STUB_MESSAGES.payDateRequired,
  payStubsNotConsecutive: PAY_STUB_MESSAGES.notConsecutive,
  payStubsNotRecent: PAY_STUB_MESSAGES.notRecent,
  payDateFuture: PAY_STUB_MESSAGES.futureDate,
  // Texts of the lease-up schemas (domain/lease-up.ts), translated here so every form reads alike.
  invalidDateTime: 'Invalid date and time',
  nameTheDocument: 'Please name the document.',
  // Figures read from statements and pay stubs.
  extractionNotExtractable: EXTRACTION_MESSAGES.notExtractable,
  extractionNotReady: EXTRACTION_MESSAGES.notReady,
  extractionWrongEntry: EXTRACTION_MESSAGES.wrongEntry,
  extractionUnreadable: EXTRACTION_MESSAGES.unreadable,
  extractionDuplicateDocument: EXTRACTION_MESSAGES.duplicateDocument,
} as const;

export type ValidationCode = keyof typeof VALIDATION_MESSAGES;

const CODE_BY_TEXT = new Map<string, ValidationCode>(Object.entries(VALIDATION_MESSAGES).map(([code, text]) => [text, code as ValidationCode]));

export const validationCodeOf = (text: string): ValidationCode | undefined => CODE_BY_TEXT.get(text);
