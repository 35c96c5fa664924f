import type { LeaseUpView } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import { leaseUpWorkflowId } from '../infra/temporal/ids';
import { renderLetterPdf, stampSignature, storeLetter } from './letters';
import { reviewDocuments } from '../infra/db/repositories/household-documents';
import { sendNotice } from './notices';
import { projectCase } from './projection';

/**
 * Writes the application's view into the `applications` read model and its open manager tasks into
 * the shared inbox (activities/projection.ts: idempotent, version-guarded).
 */
export async function projectApplication(db: Db, view: LeaseUpView): Promise<{ written: boolean }> {
  const opportunity = await db.selectFrom('opportunities').select('name').where('id', '=', view.opportunityId).executeTakeFirst();
  const result = await projectCase(
    db,
    'applications',
    {
      id: view.applicationId,
      workflow_id: leaseUpWorkflowId(view.applicationId),
      household_id: view.householdId,
      opportunity_id: view.opportunityId,
      organization_id: view.organizationId,
      applicant_user_id: view.applicantUserId,
      log_number: view.logNumber,
      status: view.status,
      current_step: view.currentStep,
      pending_tasks: JSON.stringify(view.pendingTasks),
      household_size: view.householdSize,
      household_income: view.householdIncome,
      applied_at: view.appliedAt,
      state_updated_at: view.updatedAt,
      state_version: view.version,
      // Older views (before unit offers existed) carry no held unit.
      held_unit_id: view.heldUnitId ?? null,
      view: JSON.stringify(view),
    },
    ['log_number', 'status', 'current_step', 'held_unit_id', 'household_size', 'household_income'],
    {
      caseKind: 'lease_up',
      step: view.currentStep,
      contextId: view.opportunityId,
      contextName: opportunity?.name ?? null,
      tasks: view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: t.overdue ?? false })),
    },
  );
  // A withdrawn or closed application gives its appointment time back to the others.
  if (view.status === 'withdrawn' || view.status === 'closed') {
    await db.deleteFrom('appointment_bookings').where('application_id', '=', view.applicationId).execute();
  }
  return result;
}

/** Issues the application's log number once; asking again returns the same number. */
export async function issueLogNumber(db: Db, applicationId: string): Promise<string> {
  await db.insertInto('application_log_numbers').values({ application_id: applicationId }).onConflict((oc) => oc.doNothing()).execute();
  const { number } = await db
    .selectFrom('application_log_numbers')
    .select('number')
    .where('application_id', '=', applicationId)
    .executeTakeFirstOrThrow();
  return `LU-${String(number).padStart(6, '0')}`;
}

const money = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/**
 * Makes the application's income certification (TIC) or lease letter as a PDF in blob storage.
 * Idempotent: the key is fixed by application, kind and state version, so a retry rewrites the same.
 */
export async function generateLeaseUpLetter(db: Db, blobs: BlobStore, { kind, view }: { kind: 'tic' | 'lease'; view: LeaseUpView }): Promise<string> {
  const [opportunity, applicant, organization] = await Promise.all([
    db.selectFrom('opportunities').select(['name', 'address', 'kind']).where('id', '=', view.opportunityId).executeTakeFirst(),
    db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', view.applicantUserId).executeTakeFirst(),
    db.selectFrom('organizations').select('name').where('id', '=', view.organizationId).executeTakeFirst(),
  ]);
  const unit = view.offers.find((o) => o.status === 'accepted');
  const name = applicant ? `${applicant.first_name} ${applicant.last_name}` : '';
  const common = [
    `Application log number: ${view.logNumber ?? ''}`,
    `Head of household: ${name}`,
    `Opportunity: ${opportunity?.name ?? ''}, ${opportunity?.address ?? ''}`,
    `Unit: ${unit ? `${unit.unitNumber} (${unit.bedroomType}), ${unit.address}` : 'not assigned'}`,
  ];
  const pdf = await renderLetterPdf(
    kind === 'tic'
      ? {
          title: 'Tenant Income Certification',
          subtitle: `${organization?.name ?? ''} - ${new Date().toISOString().slice(0, 10)}`,
          sections: [
            { heading: 'Household', lines: [...common, `Household size: ${view.householdSize}`] },
            { heading: 'Income', lines: [`Total annual household income declared: ${money(view.householdIncome)}`] },
            {
              heading: 'Certification',
              lines: [
                'I certify that the information on this form is true and complete to the best of my knowledge.',
                'Each adult member of the household signs below.',
              ],
            },
          ],
        }
      : {
          title: 'Lease Letter',
          subtitle: `${organization?.name ?? ''} - ${new Date().toISOString().slice(0, 10)}`,
          sections: [
            { heading: 'Lease', lines: [...common, `Tenure: ${opportunity?.kind ?? 'rental'}`] },
            { lines: ['By signing, the household accepts the unit named above under the terms of the lease.'] },
          ],
        },
  );
  return storeLetter(blobs, `applications/${view.applicationId}/letters/${kind}-v${view.version}.pdf`, pdf);
}

/** Stamps a signer's saved signature image, time and IP on the letter; returns the signed copy's key. */
export async function signLeaseUpLetter(
  blobs: BlobStore,
  s: { letterKey: string; signatureKey: string; signerName: string; ipAddress: string; signedAt: string; userId: string },
): Promise<string> {
  const signedKey = s.letterKey.replace(/\.pdf$/, `-signed-${s.userId}.pdf`);
  return stampSignature(blobs, { ...s, signedKey });
}

/** Version-1 runs' notice to the applicant (new runs use the shared `sendNotice`). */
export async function notifyApplicant(
  db: Db,
  n: { applicationId: string; userId: string; template: string; dedupeKey: string; params: Record<string, string> },
): Promise<boolean> {
  return (await sendNotice(db, { userId: n.userId, template: n.template, dedupeKey: n.dedupeKey, params: { applicationId: n.applicationId, ...n.params } })).queued;
}

/**
 * RejectDocuments: the household's documents named by id are marked rejected by the manager with the
 * reason (My Documents shows them for re-upload) and the household's completion is refreshed.
 * Idempotent (the same values written again).
 */
export async function markDocumentsRejected(db: Db, input: { householdId: string; documents: { documentId?: string; reason?: string }[] }): Promise<number> {
  const reviews = input.documents.flatMap((d) => (d.documentId ? [{ documentId: d.documentId, rejected: true, reason: d.reason ?? null }] : []));
  return (await reviewDocuments(db, input.householdId, reviews)).length;
}
