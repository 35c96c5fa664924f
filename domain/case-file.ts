import { z } from 'zod';
import { Id, idOf } from './ids';
import { REASON_MESSAGE } from './fields';
import type { IncomeBand } from './recertification';
import type { UndeliveredNotice } from './sms';

/**
 * The manager's case file: one view of a household's case for lease-up, recertification
 * and relocation: members, incomes, assets, the AMI band, housing choices, every document with its
 * review, and (recertification) what changed since the last approved certification.
 */
export const CASE_FILE_KINDS = ['lease-up', 'recertification', 'relocation'] as const;
export type CaseFileKind = (typeof CASE_FILE_KINDS)[number];

export const CaseFileParams = z.object({
  kind: z.enum(CASE_FILE_KINDS, 'Unknown case kind'),
  caseId: idOf('Invalid case id'),
});
export const CaseFileDocumentParams = CaseFileParams.extend({ id: Id });

export const DOCUMENT_DECISIONS = ['accept', 'reject', 'flag'] as const;
export type DocumentDecision = (typeof DOCUMENT_DECISIONS)[number];

/** Accept, reject with a reason (the household reads it), or flag for review (section 5: 'Please provide a reason.'). */
export const DocumentDecisionInput = z
  .object({
    decision: z.enum(DOCUMENT_DECISIONS, 'Choose accept, reject or flag'),
    reason: z.string().trim().max(1000).nullish().transform((v) => v || null),
  })
  .superRefine((r, ctx) => {
    if (r.decision === 'reject' && !r.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: REASON_MESSAGE });
  });
export type DocumentDecisionInput = z.infer<typeof DocumentDecisionInput>;

/** A document's review as the manager and the household read it. */
export type DocumentReviewState = 'pending' | 'accepted' | 'rejected' | 'flagged';

export function documentReviewState(d: { rejected: boolean; needsReview: boolean; acceptedAt: unknown }): DocumentReviewState {
  if (d.rejected) return 'rejected';
  if (d.needsReview) return 'flagged';
  return d.acceptedAt ? 'accepted' : 'pending';
}

export interface CaseFileMember {
  name: string;
  relationship: string;
  age: number;
  student: boolean;
  disability: boolean;
}

export interface CaseFileIncome {
  memberName: string;
  incomeType: string;
  sourceName: string;
  amount: number;
  frequency: string;
  annual: number;
}

export interface CaseFileAsset {
  memberName: string;
  kind: string;
  value: number;
  income: number;
}

/** What an approved certification held, and what the case file compares the household with. */
export interface CertifiedFacts {
  householdSize: number;
  members: CaseFileMember[];
  incomes: CaseFileIncome[];
  assets: CaseFileAsset[];
  totalIncome: number;
  assetIncome: number;
}

export interface CaseFileDocument {
  id: string;
  documentType: string;
  fileName: string;
  contentType: string;
  memberName: string | null;
  /** The checklist item the document answers: `<incomeType>:<documentType>`, else the document type. */
  checklistItem: string;
  uploadedAt: string;
  reviewState: DocumentReviewState;
  rejectionReason: string | null;
  /** The household's own note on a flagged or re-uploaded document. */
  householdReason: string | null;
}

export type ChangeKind = 'added' | 'removed' | 'changed';

export interface FactChange<T> {
  change: ChangeKind;
  /** Who or what the line is about (a member's name; an income's member, type and source...). */
  label: string;
  before: T | null;
  after: T | null;
}

export interface CertificationChanges {
  /** When the certification compared with was approved. */
  since: string;
  members: FactChange<CaseFileMember>[];
  incomes: FactChange<CaseFileIncome>[];
  assets: FactChange<CaseFileAsset>[];
  totalIncome: { before: number; after: number };
}

export interface CaseFile extends CertifiedFacts {
  kind: CaseFileKind;
  caseId: string;
  householdId: string;
  ami: (IncomeBand & { householdSize: number; incomeFit: 'within' | 'below' | 'above' | 'no_range' | null }) | null;
  housingChoices: { preferences: unknown; rentalAssistance: unknown[] };
  documents: CaseFileDocument[];
  /** Recertification only: null for other kinds, and before any approved certification. */
  changes: CertificationChanges | null;
  /** Notices of this case that reached nobody (every channel bounced, failed or was opted out), newest first. */
  undeliveredNotices: UndeliveredNotice[];
}

/** How a notice's case is named in the outbox (the first part of its dedupe key, domain/sms.ts noticeCaseKey). */
export const NOTICE_CASE_PREFIX: Record<CaseFileKind, string> = { 'lease-up': 'lease-up', recertification: 'recert', relocation: 'relocation' };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Lines matched by key: added, removed, or changed (any field differs). Ages move on by themselves and are not a change. */
function diff<T>(before: T[], after: T[], key: (t: T) => string, compare: (t: T) => unknown = (t) => t): FactChange<T>[] {
  // Two lines with the same key (two jobs at one employer) are told apart by their order.
  const keyed = (list: T[]) => {
    const seen = new Map<string, number>();
    return new Map(list.map((t) => {
      const k = key(t);
      const n = (seen.get(k) ?? 0) + 1;
      seen.set(k, n);
      return [n > 1 ? `${k} (${n})` : k, t] as const;
    }));
  };
  const was = keyed(before);
  const now = keyed(after);
  const out: FactChange<T>[] = [];
  for (const [k, t] of now) {
    const old = was.get(k);
    if (!old) out.push({ change: 'added', label: k, before: null, after: t });
    else if (!same(compare(old), compare(t))) out.push({ change: 'changed', label: k, before: old, after: t });
  }
  for (const [k, t] of was) if (!now.has(k)) out.push({ change: 'removed', label: k, before: t, after: null });
  return out;
}

/** What changed between the last approved certification and the household now. */
export function certificationChanges(since: string, before: CertifiedFacts, after: CertifiedFacts): CertificationChanges {
  return {
    since,
    members: diff(before.members, after.members, (m) => m.name, ({ age: _age, ...rest }) => rest),
    incomes: diff(before.incomes, after.incomes, (i) => [i.memberName, i.incomeType, i.sourceName].filter(Boolean).join(' · ')),
    assets: diff(before.assets, after.assets, (a) => [a.memberName, a.kind].filter(Boolean).join(' · ')),
    totalIncome: { before: before.totalIncome, after: after.totalIncome },
  };
}
