import { sql } from 'kysely';
import type { Db } from '../database';
import { refreshCompletion } from './profile-completion';

/** A manager's review of one of the household's documents (spec section 4: rejected, flagged for review). */
export interface DocumentReview {
  documentId: string;
  rejected: boolean;
  needsReview?: boolean;
  /** Shown to the household in My Documents and on the application when rejected. */
  reason?: string | null;
  /** Accepted by the manager (the case file); any other review takes an acceptance back. */
  accepted?: boolean;
  /** The manager who reviewed, when known (the workflow's RejectDocuments names none). */
  reviewedBy?: string | null;
}

/**
 * The one writer of document reviews, used by the manager's review route and by the lease-up
 * workflow's RejectDocuments: marks each named document of this household and refreshes the
 * household's stored profile completion (a rejected document counts as missing). Idempotent: the
 * same review written again changes nothing. Returns the ids found in this household.
 */
export async function reviewDocuments(db: Db, householdId: string, reviews: DocumentReview[]): Promise<string[]> {
  const found: string[] = [];
  for (const review of reviews) {
    const row = await db
      .updateTable('household_documents')
      .set({
        rejected_by_manager: review.rejected,
        ...(review.needsReview === undefined ? {} : { needs_review: review.needsReview }),
        rejection_reason: review.rejected ? (review.reason ?? null) : null,
        // Accepting again keeps the first acceptance's time (the same review changes nothing).
        accepted_at: review.accepted && !review.rejected ? sql<Date>`coalesce(accepted_at, now())` : null,
        ...(review.reviewedBy === undefined ? {} : { reviewed_by: review.reviewedBy, reviewed_at: new Date() }),
      })
      .where('id', '=', review.documentId)
      .where('household_id', '=', householdId)
      .returning('id')
      .executeTakeFirst();
    if (row) found.push(row.id);
  }
  if (found.length > 0) await refreshCompletion(db, householdId);
  return found;
}
