import type { AccessGrantCaseView, BulkBatchCaseView, CaseNotice, LeaseUpView, LotteryView, RecertView, RelocationView, SupportTicketView } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import { projectAccessGrant } from '../infra/db/repositories/access-grant-projection';
import * as bulk from './bulk';
import * as extraction from './extraction';
import * as leaseUp from './lease-up';
import { projectApplication } from '../infra/db/repositories/lease-up-projection';
import * as lottery from './lottery';
import * as listingAlerts from '../infra/db/repositories/listing-alerts';
import { sendNotice } from '../infra/db/repositories/notification-outbox';
import { addressedNow, currentPerson } from '../infra/db/repositories/notice-recipient';
import { queueNoticeLetter } from '../infra/paper/mailed-letters';
import { renewExpiredClaimCode } from '../infra/paper/claim-code-letter';
import * as profileLock from '../infra/db/repositories/profile-locks';
import * as recertification from './recertification';
import * as recertificationCycle from '../infra/db/repositories/recertification-cycle';
import { projectRelocation } from '../infra/db/repositories/relocation-projection';
import { projectRecertification } from '../infra/db/repositories/recertification-projection';
import * as retention from './retention';
import * as waitlist from '../infra/db/repositories/waitlist';
import { projectSupportTicket } from '../infra/db/repositories/support-ticket-projection';

/**
 * Every case kind's notice sender, idempotent by the notice's dedupe key, by the channels the person chose.
 * A household without a login, or whose head chose neither email nor texts, gets the notice as a
 * letter in its language, queued for the office to mail.
 * The recipient is resolved now, not when the case started: a household that claimed its paper
 * application answers for the placeholder head the case was started with.
 * `db` may be a transaction: the notice then commits with the change it is about.
 */
async function deliverNotice(db: Db, blobs: BlobStore, sent: CaseNotice) {
  const notice = await addressedNow(db, sent);
  const letter = await queueNoticeLetter(db, blobs, notice);
  if (!letter) return sendNotice(db, notice, (n, language) => queueNoticeLetter(db, blobs, n, { anyLogin: true, language }));
  // A household without a login whose claim code expired gets a new one with this letter.
  await renewExpiredClaimCode(db, blobs, letter.id);
  return { queued: true, channels: ['print' as const] };
}

export interface ActivityDeps {
  db: Db;
  blobs: BlobStore;
}

/** Activities receive their clients once; workflows proxy `ReturnType<typeof createActivities>`. */
export function createActivities({ db, blobs }: ActivityDeps) {
  const notify = (trx: Db, notice: CaseNotice) => deliverNotice(trx, blobs, notice);
  return {
    // Every case kind: one notice sender (deliverNotice above).
    sendNotice: (sent: CaseNotice) => deliverNotice(db, blobs, sent),
    projectApplication: (view: LeaseUpView) => projectApplication(db, view),
    issueLogNumber: ({ applicationId }: { applicationId: string }) => leaseUp.issueLogNumber(db, applicationId),
    generateLeaseUpLetter: (input: Parameters<typeof leaseUp.generateLeaseUpLetter>[2]) => leaseUp.generateLeaseUpLetter(db, blobs, input),
    // The lease-up TIC is signed by the same people as the recertification TIC: head and each adult.
    leaseUpTicSigners: async ({ householdId, headUserId, today }: { householdId: string; headUserId: string; today: string }) =>
      recertificationCycle.signersOf(db, await currentPerson(db, headUserId), householdId, today),
    signLeaseUpLetter: (input: Parameters<typeof leaseUp.signLeaseUpLetter>[2]) => leaseUp.signLeaseUpLetter(db, blobs, input),
    markDocumentsRejected: (input: Parameters<typeof leaseUp.markDocumentsRejected>[1]) => leaseUp.markDocumentsRejected(db, input),
    // Recertification and relocation
    projectRecertification: (view: RecertView) => projectRecertification(db, view),
    generateRecertificationTic: (input: Parameters<typeof recertification.generateRecertificationTic>[2]) =>
      recertification.generateRecertificationTic(db, blobs, input),
    signRecertificationTic: (input: Parameters<typeof recertification.signRecertificationTic>[2]) => recertification.signRecertificationTic(db, blobs, input),
    lockProfile: (input: Parameters<typeof profileLock.lockProfile>[1]) => profileLock.lockProfile(db, input),
    unlockProfile: (input: Parameters<typeof profileLock.unlockProfile>[1]) => profileLock.unlockProfile(db, input),
    projectRelocation: (view: RelocationView) => projectRelocation(db, view),
    // The lottery
    projectLottery: (view: LotteryView) => lottery.projectLottery(db, view),
    drawLottery: (input: { opportunityId: string; publicValue: string }) => lottery.drawLottery(db, input),
    freezeLotteryList: (input: { opportunityId: string }) => lottery.freezeLotteryList(db, input),
    admitPaperApplication: (input: lottery.AdmitPaperInput) => lottery.admitPaperApplication(db, input),
    resolveDuplicate: (input: { pairId: string; keep: string; reason: string; decidedBy: string }) => lottery.resolveDuplicate(db, blobs, input),
    nextInvitations: (input: { opportunityId: string; count: number }) => lottery.nextInvitations(db, input),
    markInvited: (input: { opportunityId: string; applicationIds: string[] }) => lottery.markInvited(db, input),
    // A waitlist's check-ins (workflows/waitlist.ts): the settings, and the sweeps of each cycle's days
    waitlistSettings: (input: { opportunityId: string }) => waitlist.waitlistSettings(db, input.opportunityId),
    askCheckIns: (input: waitlist.SweepInput) => waitlist.askCheckIns(db, notify, input),
    remindCheckIns: (input: waitlist.SweepInput) => waitlist.remindCheckIns(db, notify, input),
    deactivateUnanswered: (input: waitlist.SweepInput) => waitlist.deactivateUnanswered(db, notify, input),
    removeUnrestored: (input: waitlist.SweepInput) => waitlist.removeUnrestored(db, notify, input),
    // Delegated access
    projectAccessGrant: (view: AccessGrantCaseView) => projectAccessGrant(db, view),
    // Support tickets
    projectSupportTicket: (view: SupportTicketView) => projectSupportTicket(db, view),
    dueAnnualRecertifications: (input: { now: number }) => recertificationCycle.dueAnnualRecertifications(db, input),
    // Bulk actions from the manager's inbox
    bulkCasesPage: (input: Parameters<typeof bulk.bulkCasesPage>[1]) => bulk.bulkCasesPage(db, input),
    applyBulkCase: (input: bulk.BulkCaseInput) => bulk.applyBulkCase(db, input),
    projectBulkBatch: (view: BulkBatchCaseView) => bulk.projectBulkBatch(db, view),
    // Figures read from statements and pay stubs
    extractDocument: (input: { extractionId: string }) => extraction.extractDocument(db, blobs, input),
    markExtractionFailed: (input: { extractionId: string }) => extraction.markExtractionFailed(db, input),
    // Listing alerts: one batch of a published listing's fan-out, one batch of a week's digests
    alertFanOutBatch: (input: { opportunityId: string; after: string | null; limit: number; now: number }) => listingAlerts.fanOutBatch(db, input),
    alertDigestBatch: (input: { week: string; after: string | null; limit: number }) => listingAlerts.digestBatch(db, input),
    // Retention: personal data of long-closed applications removed (the daily schedule's sweep)
    purgeExpiredApplications: (input: { now: number; limit: number }) => retention.purgeExpiredApplications(db, blobs, input),
  };
}
