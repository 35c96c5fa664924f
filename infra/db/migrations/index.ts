import type { Migration } from 'kysely';
import * as foundation from './2026-11-22T0000-foundation';
import * as profileLock from './2026-11-22T0100-profile-lock';
import * as outboxAndTasks from './2026-11-22T0110-outbox-and-tasks';
import * as identity from './2026-11-22T0300-identity';
import * as household from './2026-11-22T0400-household';
import * as recertificationRelocation from './2026-11-22T0600-recertification-relocation';
import * as leaseUp from './2026-11-22T0700-lease-up';
import * as appointmentSlots from './2026-11-22T0710-appointment-slots';
import * as caseViews from './2026-11-22T0725-case-views';
import * as applicationViews from './2026-11-23T0100-application-views';
import * as lottery from './2026-11-23T0200-lottery';
import * as incomeEncryption from './2026-11-23T0500-income-encryption';
import * as signInProtection from './2026-11-23T0510-sign-in-protection';
import * as ambassadorAccess from './2026-11-23T0700-ambassador-access';
import * as signedLetters from './2026-11-24T0600-signed-letters';
import * as notificationClicks from './2026-11-23T0600-notification-clicks';
import * as payStubDates from './2026-11-23T0610-pay-stub-dates';
import * as listIndexes from './2026-11-24T0100-list-indexes';
import * as support from './2026-11-24T0500-support';
import * as supportKeyIndexes from './2026-11-24T0700-support-key-indexes';
import * as heldUnitIndex from './2026-11-25T0500-held-unit-index';
import * as caseFile from './2026-11-26T0200-case-file';
import * as bulkBatches from './2026-11-26T0300-bulk-batches';
import * as faqContent from './2026-11-26T0400-faq-content';
import * as opportunityMailingAddress from './2026-11-26T0500-opportunity-mailing-address';
import * as reviewAndBatchKeyIndexes from './2026-11-26T0800-review-and-batch-key-indexes';
import * as ticketAttachments from './2026-11-27T0100-ticket-attachments';
// The building's place on the map (transit card).
import * as buildingPlaces from './2026-11-27T0200-building-places';
import * as translationMemory from './2026-11-27T0300-translation-memory';
import * as intakeConversations from './2026-11-27T0310-intake-conversations';
import * as documentExtractions from './2026-11-27T0400-document-extractions';
import * as operatorAudit from './2026-11-27T0500-operator-audit';
import * as paperApplications from './2026-11-29T0300-paper-applications';
import * as idempotentRequests from './2026-11-29T0500-idempotent-requests';
import * as smsDelivery from './2026-11-29T0600-sms-delivery';
import * as privacy from './2026-11-29T0700-privacy';
import * as publicListingGeneration from './2026-11-29T0800-public-listing-generation';
import * as rankedApplicationIndexes from './2026-11-29T1000-ranked-application-indexes';
import * as claimCodes from './2026-12-02T0347-claim-codes';
import * as idempotencyLeaseToken from './2026-12-02T0347-idempotency-lease-token';
import * as exportLeasesAndBlobDeletions from './2026-12-02T1740-export-leases-and-blob-deletions';
import * as listingAlerts from './2026-12-03T0100-listing-alerts';
import * as waitlistState from './2026-12-03T0200-waitlist-state';
import * as waitlistCheckIns from './2026-12-03T0300-waitlist-check-ins';
import * as invitationLog from './2026-12-03T0500-invitation-log';

/** Every migration, in order. Listed statically so the bundle and tsx need no folder scanning. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0000-foundation': foundation,
  '2026-11-22T0100-profile-lock': profileLock,
  '2026-11-22T0110-outbox-and-tasks': outboxAndTasks,
  '2026-11-22T0300-identity': identity,
  '2026-11-22T0400-household': household,
  '2026-11-22T0600-recertification-relocation': recertificationRelocation,
  '2026-11-22T0700-lease-up': leaseUp,
  '2026-11-22T0710-appointment-slots': appointmentSlots,
  '2026-11-22T0725-case-views': caseViews,
  '2026-11-23T0100-application-views': applicationViews,
  '2026-11-23T0200-lottery': lottery,
  '2026-11-23T0500-income-encryption': incomeEncryption,
  '2026-11-23T0510-sign-in-protection': signInProtection,
  '2026-11-23T0600-notification-clicks': notificationClicks,
  '2026-11-23T0610-pay-stub-dates': payStubDates,
  '2026-11-23T0700-ambassador-access': ambassadorAccess,
  '2026-11-24T0100-list-indexes': listIndexes,
  '2026-11-24T0500-support': support,
  '2026-11-24T0600-signed-letters': signedLetters,
  '2026-11-24T0700-support-key-indexes': supportKeyIndexes,
  '2026-11-25T0500-held-unit-index': heldUnitIndex,
  '2026-11-26T0200-case-file': caseFile,
  '2026-11-26T0300-bulk-batches': bulkBatches,
  '2026-11-26T0400-faq-content': faqContent,
  '2026-11-26T0500-opportunity-mailing-address': opportunityMailingAddress,
  '2026-11-26T0800-review-and-batch-key-indexes': reviewAndBatchKeyIndexes,
  '2026-11-27T0100-ticket-attachments': ticketAttachments,
  '2026-11-27T0200-building-places': buildingPlaces,
  '2026-11-27T0300-translation-memory': translationMemory,
  '2026-11-27T0310-intake-conversations': intakeConversations,
  '2026-11-27T0400-document-extractions': documentExtractions,
  '2026-11-27T0500-operator-audit': operatorAudit,
  '2026-11-29T0300-paper-applications': paperApplications,
  '2026-11-29T0500-idempotent-requests': idempotentRequests,
  '2026-11-29T0600-sms-delivery': smsDelivery,
  '2026-11-29T0700-privacy': privacy,
  '2026-11-29T0800-public-listing-generation': publicListingGeneration,
  '2026-11-29T1000-ranked-application-indexes': rankedApplicationIndexes,
  '2026-12-02T0347-claim-codes': claimCodes,
  '2026-12-02T0347-idempotency-lease-token': idempotencyLeaseToken,
  '2026-12-02T1740-export-leases-and-blob-deletions': exportLeasesAndBlobDeletions,
  '2026-12-03T0100-listing-alerts': listingAlerts,
  '2026-12-03T0200-waitlist-state': waitlistState,
  '2026-12-03T0300-waitlist-check-ins': waitlistCheckIns,
  '2026-12-03T0500-invitation-log': invitationLog,
};
