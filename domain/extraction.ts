import { z } from 'zod';
import { AssetInput } from './assets';
import { REQUIRED, uuid } from './fields';
import { FORM_MESSAGES } from './form-messages';
import { IncomeInput } from './income';
import type { ExtractableDocumentType, ExtractedFields, BankStatementFields, PayStubFields } from './extraction-read';
import type { TextLine } from './extraction-text';

/**
 * The figures of an uploaded bank statement or pay stub, read from its text (a PDF's own text, or
 * OCR of a scan) by rules that look for labels, not positions (extraction-text.ts), so they work
 * for a label and its value on one line, a value under its label, and a table of labels over
 * values; each document's fields are read by extraction-read.ts. Each field says how sure the
 * reading is; below CONFIRM_BELOW it is marked for the resident to check. Nothing read here is
 * saved until the resident confirms it (SaveAiExtractedData). The reading proposes figures only:
 * it says nothing about eligibility. This file holds the reading's record and its calls.
 */
export * from './extraction-read';
export { CONFIRM_BELOW, amountsIn, datesIn, type ExtractedField, type TextLine } from './extraction-text';

export const EXTRACTION_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

/** What a reading stores (sealed): how the text was read, its lines, and the figures found in them. */
export interface StoredExtraction {
  source: 'pdf_text' | 'ocr';
  lines: TextLine[];
  extracted: ExtractedFields;
}

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
