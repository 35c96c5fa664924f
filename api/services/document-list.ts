import { sql } from 'kysely';
import { documentStatusOf, fileKindOf, uploadDateOf, type DocumentType, type Page, type UploadedDocument } from '../../domain';
import type { Db } from '../../infra/db/database';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';

export interface DocumentFilters {
  search?: string;
  documentType?: DocumentType;
  status?: 'Uploaded' | 'Pending';
  memberId?: string;
  rejected?: boolean;
}

/**
 * A household's documents, newest first, then by id; read in this order from the index
 * `household_documents_household_uploaded` (migration 2026-11-24T0100).
 */
const NEWEST: Keyset = { keys: [{ expr: sql.ref('d.uploaded_at'), type: 'timestamptz' }], id: sql.ref('d.id'), idType: 'uuid' };
const TAG = 'documents:uploaded:desc';

/** Files are private: they are served by GetDocument/{id} only (spec section 7). */
const fileUrlOf = (id: string, key: string | null) => (key ? `/api/Document/GetDocument/${id}` : null);

function documentRows(db: Db, householdId: string, filters: DocumentFilters) {
  let q = db
    .selectFrom('household_documents as d')
    .innerJoin('households as h', 'h.id', 'd.household_id')
    .innerJoin('users as head', 'head.id', 'h.head_user_id')
    .innerJoin('users as up', 'up.id', 'd.uploaded_by')
    .leftJoin('household_members as m', 'm.id', 'd.member_id')
    .leftJoin('household_incomes as i', 'i.id', 'd.income_id')
    .select([
      'd.id', 'd.document_type', 'd.file_name', 'd.member_id', 'd.income_id', 'd.uploaded_at', 'd.blob_key', 'd.review_reason',
      'd.rejected_by_manager', 'd.needs_review', 'd.rejection_reason', 'd.discrepancy_reason', 'd.is_tenant_signed',
      'h.head_user_id', 'head.first_name', 'head.last_name', 'up.first_name as up_first', 'up.last_name as up_last', 'm.full_name as member_name', 'i.income_type',
    ])
    .where('d.household_id', '=', householdId);
  if (filters.documentType) q = q.where('d.document_type', '=', filters.documentType);
  if (filters.memberId) q = q.where('d.member_id', '=', filters.memberId);
  if (filters.status === 'Uploaded') q = q.where('d.blob_key', 'is not', null);
  if (filters.status === 'Pending') q = q.where('d.blob_key', 'is', null);
  if (filters.rejected !== undefined) q = q.where('d.rejected_by_manager', '=', filters.rejected);
  if (filters.search) {
    const term = `%${filters.search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('d.file_name', 'ilike', term), eb('d.document_type', 'ilike', term), eb('m.full_name', 'ilike', term)]));
  }
  return q;
}

type DocumentRow = Awaited<ReturnType<ReturnType<typeof documentRows>['executeTakeFirstOrThrow']>>;

/** A document as the section-3 mapping. */
function toUploadedDocument(r: DocumentRow): UploadedDocument {
  return {
    id: r.id,
    documentTypeName: r.document_type as DocumentType,
    fileName: r.file_name,
    fileType: fileKindOf(r.file_name),
    houseHoldMemberId: r.member_id,
    houseHoldMemberName: r.member_name,
    applicantId: r.head_user_id,
    applicantFullName: `${r.first_name} ${r.last_name}`,
    householdIncomeId: r.income_id,
    uploadDate: uploadDateOf(r.uploaded_at ? new Date(r.uploaded_at).toISOString() : null),
    fileUrl: fileUrlOf(r.id, r.blob_key),
    uploadedBy: `${r.up_first} ${r.up_last}`,
    isTenantSigned: r.is_tenant_signed,
    familyMemberNames: r.member_name ? [r.member_name] : [],
    reviewReason: r.review_reason,
    rejectedByManager: r.rejected_by_manager,
    needsReview: r.needs_review,
    checklistItems: r.income_type ? [`${r.income_type}:${r.document_type}`] : [r.document_type],
    rejectionReason: r.rejection_reason,
    discrepancyReason: r.discrepancy_reason,
    status: documentStatusOf(fileUrlOf(r.id, r.blob_key)),
  };
}

/**
 * Every document of the household, filtered (`/api/Household/getAllDocuments`, My Documents and the
 * profile's checklist): one household's own files, not a list that grows with the organisation.
 */
export async function listDocuments(db: Db, householdId: string, filters: DocumentFilters): Promise<UploadedDocument[]> {
  const rows = await orderByKeyset(documentRows(db, householdId, filters), NEWEST, 'desc').execute();
  return rows.map(toUploadedDocument);
}

/** The page's query (also read by the EXPLAIN test, so the plan checked is the one served). */
export function documentPageQuery(db: Db, householdId: string, query: DocumentFilters & { cursor?: string; limit: number }) {
  const after = decodeCursor(query.cursor, NEWEST, TAG);
  let q = documentRows(db, householdId, query).select(keysetSelections(NEWEST));
  if (after) q = q.where(keysetAfter(NEWEST, 'desc', after));
  return orderByKeyset(q, NEWEST, 'desc').limit(query.limit + 1);
}

/** `GET /api/Document`: one page of a household's documents (a manager names the household) and the next cursor. */
export async function listDocumentPage(db: Db, householdId: string, query: DocumentFilters & { cursor?: string; limit: number }): Promise<Page<UploadedDocument>> {
  const rows = await documentPageQuery(db, householdId, query).execute();
  return toPage(rows, query.limit, NEWEST, TAG, toUploadedDocument);
}
