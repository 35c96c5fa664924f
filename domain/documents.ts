import { z } from 'zod';
import { REASON_MESSAGE, REQUIRED, requiredText, uuid } from './fields';
import type { IncomeType } from './income';

/** Document types the household uploads (spec sections 3 and 5). */
export const DOCUMENT_TYPES = [
  'pay_stub', 'bank_statement', 'retirement_statement', 'award_letter', 'tax_return', 'form_1099', 'employer_letter',
  'benefit_letter', 'support_agreement', 'zero_income_affidavit', 'identity', 'rental_assistance_proof', 'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Section 5/9: bank statements up to 6 files, retirement statement 1 file, pay stubs the last 6 consecutive. */
export const FILE_LIMITS: Partial<Record<DocumentType, number>> = { bank_statement: 6, retirement_statement: 1, pay_stub: 6 };
export const MAX_FILES_PER_UPLOAD = 6;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** What the upload accepts, checked by content (magic bytes), not by the name or the declared type. */
export const ALLOWED_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/heic', 'image/tiff'] as const;

export const DOCUMENT_MESSAGES = {
  tooManyFiles: 'Too many files for this document type',
  bankStatements: 'Bank statements: up to 6 files',
  retirementStatement: 'Retirement statement: 1 file',
  payStubs: 'Pay stubs: upload the last 6 consecutive',
  fileRequired: 'File is required',
  fileNameRequired: 'Document file name is required',
  typeRequired: 'Document type is required',
  fileTooLarge: 'File is too large (10 MB at most)',
  fileType: 'Only PDF, JPEG, PNG, HEIC or TIFF files are accepted',
  reason: REASON_MESSAGE,
} as const;

export function fileLimitMessage(type: DocumentType): string {
  if (type === 'bank_statement') return DOCUMENT_MESSAGES.bankStatements;
  if (type === 'retirement_statement') return DOCUMENT_MESSAGES.retirementStatement;
  if (type === 'pay_stub') return DOCUMENT_MESSAGES.payStubs;
  return DOCUMENT_MESSAGES.tooManyFiles;
}

/** The problem with adding `adding` files of `type` when `existing` are on file, or null. */
export function fileCountProblem(type: DocumentType, existing: number, adding: number): string | null {
  if (adding < 1) return DOCUMENT_MESSAGES.fileRequired;
  const limit = FILE_LIMITS[type];
  return limit !== undefined && existing + adding > limit ? fileLimitMessage(type) : null;
}

/** Required-documents checklist per income type (GetRequiredDocs / GetIncomeTypeDocuments). */
export const REQUIRED_DOCS_BY_INCOME: Record<IncomeType, DocumentType[]> = {
  employment: ['pay_stub'],
  self_employment: ['tax_return', 'form_1099'],
  social_security: ['award_letter'],
  ssi: ['award_letter'],
  ssp: ['award_letter'],
  pension: ['award_letter'],
  veterans: ['award_letter'],
  disability: ['award_letter'],
  unemployment: ['benefit_letter'],
  workers_compensation: ['benefit_letter'],
  public_assistance: ['benefit_letter'],
  military_pay: ['pay_stub'],
  contributions: ['other'],
  asset_income: ['bank_statement'],
  long_term_care: ['benefit_letter'],
  grants: ['award_letter'],
  other: ['other'],
  zero_income: ['zero_income_affidavit'],
  alimony_child_support: ['support_agreement'],
  lump_sum: ['other'],
  anticipated_change: ['employer_letter'],
  gig_economy: ['bank_statement'],
  income_tax_refund: ['tax_return'],
};

/** Multipart text fields of UploadDocument (the file is the `file`/`files` part). */
export const UploadFields = z.object({
  documentType: z.enum(DOCUMENT_TYPES, DOCUMENT_MESSAGES.typeRequired),
  memberId: uuid.nullish().transform((v) => v ?? null),
  incomeId: uuid.nullish().transform((v) => v ?? null),
  assetId: uuid.nullish().transform((v) => v ?? null),
  /** Re-uploading over a rejected or flagged document needs a reason (section 5). */
  replacesDocumentId: uuid.nullish().transform((v) => v ?? null),
  reason: z.string().trim().max(1000).nullish().transform((v) => v || null),
  /** Pay stubs: the pay date of each file, in file order, comma-separated (YYYY-MM-DD,...). */
  payDates: z.string().trim().max(200).nullish().transform((v) => (v ? v.split(',').map((d) => d.trim()) : [])),
}).superRefine((f, ctx) => {
  if (f.replacesDocumentId && !f.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: REASON_MESSAGE });
});
export type UploadFields = z.infer<typeof UploadFields>;

export const ReviewReasonInput = z.object({ documentId: uuid, reason: z.string(REASON_MESSAGE).trim().min(1, REASON_MESSAGE).max(1000) });
export const ManagerReviewInput = z.object({
  documentId: uuid,
  rejected: z.boolean().default(false),
  needsReview: z.boolean().default(false),
  rejectionReason: z.string().trim().max(1000).nullish().transform((v) => v || null),
}).superRefine((r, ctx) => {
  if (r.rejected && !r.rejectionReason) ctx.addIssue({ code: 'custom', path: ['rejectionReason'], message: REASON_MESSAGE });
});
/** A generic required document name field, for forms that name a file. */
export const DocumentNameInput = z.object({ fileName: requiredText(255), documentType: z.enum(DOCUMENT_TYPES, REQUIRED) });

export type DocumentStatus = 'Uploaded' | 'Pending';
export type FileKind = 'PDF' | 'JPG' | 'JPEG' | 'PNG' | 'HEIC' | 'TIFF' | 'DOC' | 'DOCX';

/** Spec section 3: file type from the file-name extension, default PDF. */
export function fileKindOf(fileName: string | null | undefined): FileKind {
  const ext = (fileName ?? '').split('.').pop()?.toUpperCase() ?? '';
  const known: FileKind[] = ['PDF', 'JPG', 'JPEG', 'PNG', 'HEIC', 'TIFF', 'DOC', 'DOCX'];
  return (known as string[]).includes(ext) && (fileName ?? '').includes('.') ? (ext as FileKind) : 'PDF';
}

/** Spec section 3: an upload date in year 0000 counts as empty. */
export function uploadDateOf(value: string | null | undefined): string | null {
  if (!value || value.startsWith('0000') || value.startsWith('0001-01-01')) return null;
  return value;
}

/** Spec section 3: Uploaded when a file address exists, otherwise Pending. */
export const documentStatusOf = (fileUrl: string | null | undefined): DocumentStatus => (fileUrl ? 'Uploaded' : 'Pending');

/** Spec section 3 "uploaded document (as mapped)", plus list columns (manager review, discrepancy reason). */
export interface UploadedDocument {
  id: string;
  documentTypeName: DocumentType;
  fileName: string;
  fileType: FileKind;
  houseHoldMemberId: string | null;
  houseHoldMemberName: string | null;
  applicantId: string;
  applicantFullName: string;
  householdIncomeId: string | null;
  uploadDate: string | null;
  fileUrl: string | null;
  uploadedBy: string;
  isTenantSigned: boolean;
  familyMemberNames: string[];
  reviewReason: string | null;
  rejectedByManager: boolean;
  needsReview: boolean;
  checklistItems: string[];
  rejectionReason: string | null;
  discrepancyReason: string | null;
  status: DocumentStatus;
}

/** Document content (spec section 3): base64 and content type. */
export interface DocumentContent {
  fileContent: string;
  contentType: string;
}

/**
 * One line of the required-documents checklist: a document an income entry needs, or (income null)
 * the proof document every member needs (section 5).
 */
export interface RequiredDocItem {
  incomeId: string | null;
  incomeType: IncomeType | null;
  memberId: string;
  memberName: string;
  documentType: DocumentType;
  uploaded: boolean;
}

/** A checklist line's key: its income entry's, or for a member's proof, the member's. */
export function requiredDocKey(item: { incomeId?: unknown; memberId?: unknown; documentType?: unknown }): string {
  return item.incomeId ? `${String(item.incomeId)}:${String(item.documentType)}` : `member-${String(item.memberId)}:${String(item.documentType)}`;
}
