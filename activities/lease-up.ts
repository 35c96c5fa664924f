import { formatLogNumber, type LeaseUpView } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import { certificationFacts } from '../infra/db/repositories/certification-facts';
import { leaseContent, ticContent } from './income-certification';
import { renderLetterPdf, stampSignature, storeLetter } from '../infra/letters/pdf';
import { recordSignedLetter } from '../infra/db/repositories/signed-letters';
import { signersOf } from '../infra/db/repositories/recertification-cycle';
import { currentPerson } from '../infra/db/repositories/notice-recipient';
import { reviewDocuments } from '../infra/db/repositories/household-documents';

/** Issues the application's log number once; asking again returns the same number. */
export async function issueLogNumber(db: Db, applicationId: string): Promise<string> {
  await db.insertInto('application_log_numbers').values({ application_id: applicationId }).onConflict((oc) => oc.doNothing()).execute();
  const { number } = await db
    .selectFrom('application_log_numbers')
    .select('number')
    .where('application_id', '=', applicationId)
    .executeTakeFirstOrThrow();
  return formatLogNumber(number);
}

/**
 * Makes the application's income certification (TIC) or lease letter as a PDF in blob storage, in
 * the household's language, with what an income certification carries (activities/income-certification.ts).
 * Idempotent: the key is fixed by application, kind and state version, so a retry rewrites the same.
 */
export async function generateLeaseUpLetter(db: Db, blobs: BlobStore, { kind, view }: { kind: 'tic' | 'lease'; view: LeaseUpView }): Promise<string> {
  const offer = view.offers.find((o) => o.status === 'accepted');
  const effectiveDate = view.updatedAt.slice(0, 10);
  const [opportunity, organization, unit, facts, signers] = await Promise.all([
    db.selectFrom('opportunities').select(['name', 'address', 'kind']).where('id', '=', view.opportunityId).executeTakeFirst(),
    db.selectFrom('organizations').select('name').where('id', '=', view.organizationId).executeTakeFirst(),
    offer ? db.selectFrom('units').select('monthly_rent').where('id', '=', offer.unitId).executeTakeFirst() : undefined,
    certificationFacts(db, view.householdId, effectiveDate),
    currentPerson(db, view.applicantUserId).then((head) => signersOf(db, head, view.householdId, effectiveDate)),
  ]);
  const setting = {
    reference: view.logNumber ?? view.applicationId,
    organization: organization?.name ?? '',
    effectiveDate,
    unit: offer ? { number: offer.unitNumber, address: offer.address, bedrooms: offer.bedroomType } : null,
    monthlyRent: unit ? Number(unit.monthly_rent) : null,
    // The lease letter is signed by the applicant; the TIC by the head and each adult member.
    signers: kind === 'tic' ? signers : signers.filter((g) => g.isHead),
  };
  const content =
    kind === 'tic'
      ? ticContent(facts, setting)
      : leaseContent(facts, { ...setting, opportunity: `${opportunity?.name ?? ''}, ${opportunity?.address ?? ''}`, tenure: opportunity?.kind ?? 'rental' });
  return storeLetter(blobs, `applications/${view.applicationId}/letters/${kind}-v${view.version}.pdf`, await renderLetterPdf(content));
}

/**
 * Draws a signer's saved signature image, name, time and IP on the letter's signature page; keeps
 * the signed copy's SHA-256 with the application (signed_letters); returns the signed copy's key.
 */
export async function signLeaseUpLetter(
  db: Db,
  blobs: BlobStore,
  s: { letterKey: string; signatureKey: string; signerName: string; ipAddress: string; signedAt: string; userId: string },
): Promise<string> {
  const signedKey = s.letterKey.replace(/\.pdf$/, `-signed-${s.userId}.pdf`);
  const signed = await stampSignature(blobs, { ...s, signedKey });
  const [, applicationId, , file] = s.letterKey.split('/');
  await recordSignedLetter(db, {
    signedKey,
    caseKind: 'lease_up',
    caseId: applicationId!,
    letter: file?.startsWith('lease') ? 'lease' : 'tic',
    letterKey: s.letterKey,
    sha256: signed.sha256,
    signerId: s.userId,
    signedAt: s.signedAt,
  });
  return signed.key;
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
