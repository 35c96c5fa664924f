import {
  certificationChanges, documentReviewState, incomeFit, NOTICE_CASE_PREFIX,
  type CaseFile, type CaseFileDocument, type CaseFileKind, type DocumentDecisionInput, type IncomeRange,
} from '../../domain';
import { certificationFacts } from '../../infra/db/repositories/certification-facts';
import { lastCertification } from '../../infra/db/repositories/certification-records';
import type { Db } from '../../infra/db/database';
import { reviewDocuments } from '../../infra/db/repositories/household-documents';
import { undeliveredNotices } from '../../infra/db/repositories/notification-outbox';
import { forbidden, notFound } from '../errors';
import type { Session } from '../session';
import { LEASE_UP_KIND, RECERT_KIND, RELOCATION_KIND } from './case-kinds';
import { roleOnCase, type HouseholdCaseKind } from './cases';

// The three kinds differ only in views and inputs, which the case file does not read.
const KINDS: Record<CaseFileKind, HouseholdCaseKind<any, any, string>> = {
  'lease-up': LEASE_UP_KIND,
  recertification: RECERT_KIND,
  relocation: RELOCATION_KIND,
};

/**
 * The case's household, for a manager of the case's organisation only: an unknown case is 404, the
 * manager of another organisation 403 (the case service's own check), the household's own side too
 * (the case file is the manager's review; the household reads My Documents and its case page).
 */
export async function managerCase(db: Db, session: Session, kind: CaseFileKind, caseId: string): Promise<{ householdId: string }> {
  const api = KINDS[kind];
  const access = await roleOnCase(db, api, session, caseId);
  if (access.role !== api.roles.manager) throw forbidden();
  return { householdId: access.householdId };
}

const today = () => new Date().toISOString().slice(0, 10);

/** Every document of the household with its checklist item and review (one household's files). */
async function caseDocuments(db: Db, householdId: string): Promise<CaseFileDocument[]> {
  const rows = await db
    .selectFrom('household_documents as d')
    .leftJoin('household_members as m', 'm.id', 'd.member_id')
    .leftJoin('household_incomes as i', 'i.id', 'd.income_id')
    .select([
      'd.id', 'd.document_type', 'd.file_name', 'd.content_type', 'd.uploaded_at', 'd.rejected_by_manager', 'd.needs_review',
      'd.accepted_at', 'd.rejection_reason', 'd.review_reason', 'd.discrepancy_reason', 'm.full_name', 'i.income_type',
    ])
    .where('d.household_id', '=', householdId)
    .where('d.blob_key', 'is not', null)
    .orderBy('d.uploaded_at', 'desc')
    .orderBy('d.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    documentType: r.document_type,
    fileName: r.file_name,
    contentType: r.content_type,
    memberName: r.full_name,
    checklistItem: r.income_type ? `${r.income_type}:${r.document_type}` : r.document_type,
    uploadedAt: new Date(r.uploaded_at).toISOString(),
    reviewState: documentReviewState({ rejected: r.rejected_by_manager, needsReview: r.needs_review, acceptedAt: r.accepted_at }),
    rejectionReason: r.rejection_reason,
    householdReason: r.discrepancy_reason ?? r.review_reason,
  }));
}

/** The opportunity's income table of a lease-up case (its ranges by household size); none for the other kinds. */
async function incomeRangesOf(db: Db, kind: CaseFileKind, caseId: string): Promise<IncomeRange[] | null> {
  if (kind !== 'lease-up') return null;
  const row = await db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select('o.income_ranges')
    .where('a.id', '=', caseId)
    .executeTakeFirst();
  return row?.income_ranges ?? [];
}

/** `GET /api/CaseFile/{kind}/{caseId}`. */
export async function readCaseFile(db: Db, session: Session, kind: CaseFileKind, caseId: string): Promise<CaseFile> {
  const { householdId } = await managerCase(db, session, kind, caseId);
  const [facts, documents, profile, assistance, ranges, last, undelivered] = await Promise.all([
    certificationFacts(db, householdId, today()),
    caseDocuments(db, householdId),
    db.selectFrom('household_profiles').select('preferences').where('household_id', '=', householdId).executeTakeFirst(),
    db.selectFrom('rental_assistance').select(['id', 'details']).where('household_id', '=', householdId).orderBy('updated_at').execute(),
    incomeRangesOf(db, kind, caseId),
    kind === 'recertification' ? lastCertification(db, householdId, caseId) : Promise.resolve(null),
    undeliveredNotices(db, { caseKey: `${NOTICE_CASE_PREFIX[kind]}:${caseId}` }),
  ]);
  const certified = { householdSize: facts.householdSize, members: facts.members, incomes: facts.incomes, assets: facts.assets, totalIncome: facts.totalIncome, assetIncome: facts.assetIncome };
  return {
    kind,
    caseId,
    householdId,
    ...certified,
    ami: facts.band
      ? { ...facts.band, householdSize: facts.householdSize, incomeFit: ranges ? incomeFit(ranges, facts.householdSize, facts.totalIncome) : null }
      : null,
    housingChoices: { preferences: profile?.preferences ?? null, rentalAssistance: assistance.map((a) => ({ ...(a.details as object), id: a.id })) },
    documents,
    changes: last ? certificationChanges(last.approvedAt, last.facts, certified) : null,
    undeliveredNotices: undelivered.map(({ caseKey: _case, ...notice }) => notice),
  };
}

/**
 * `POST /api/CaseFile/{kind}/{caseId}/documents/{id}/review`: accept, reject with a reason or flag,
 * through the one writer of document reviews (the household reads the reason in My Documents and
 * on its application). A document of another household is 404.
 */
export async function reviewCaseDocument(db: Db, session: Session, kind: CaseFileKind, caseId: string, documentId: string, input: DocumentDecisionInput): Promise<CaseFileDocument> {
  const { householdId } = await managerCase(db, session, kind, caseId);
  const [found] = await reviewDocuments(db, householdId, [{
    documentId,
    rejected: input.decision === 'reject',
    needsReview: input.decision === 'flag',
    accepted: input.decision === 'accept',
    reason: input.reason,
    reviewedBy: session.userId,
  }]);
  if (!found) throw notFound();
  const document = (await caseDocuments(db, householdId)).find((d) => d.id === documentId);
  if (!document) throw notFound();
  return document;
}
