import type { RecertSigner } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import { certificationFacts } from '../infra/db/repositories/certification-facts';
import { ticContent } from './income-certification';
import { renderLetterPdf, stampSignature } from '../infra/letters/pdf';
import { recordSignedLetter } from '../infra/db/repositories/signed-letters';

/**
 * The Tenant Income Certification PDF of a cycle, in the household's language, with what an income
 * certification carries (activities/income-certification.ts); effective on the cycle's deadline (the
 * lease anniversary). The same key for the same case, so a retried activity overwrites its own file;
 * names and figures come from the database, never from the workflow history.
 */
export async function generateRecertificationTic(
  db: Db,
  blobs: BlobStore,
  input: { caseId: string; householdId: string; signers: RecertSigner[]; deadline: string },
): Promise<{ key: string }> {
  const [tenancy, facts, names] = await Promise.all([
    db.selectFrom('tenancies').selectAll().where('household_id', '=', input.householdId).executeTakeFirst(),
    certificationFacts(db, input.householdId, input.deadline),
    signerNames(db, input.signers.map((g) => g.id)),
  ]);
  const organization = tenancy ? await db.selectFrom('organizations').select('name').where('id', '=', tenancy.organization_id).executeTakeFirst() : undefined;
  const content = ticContent(
    facts,
    {
      reference: input.caseId,
      organization: organization?.name ?? tenancy?.building_name ?? '',
      effectiveDate: input.deadline,
      unit: tenancy ? { number: tenancy.unit_number, address: tenancy.address, bedrooms: tenancy.bedrooms } : null,
      monthlyRent: tenancy?.monthly_rent == null ? null : Number(tenancy.monthly_rent),
      signers: input.signers.map((g) => ({ name: names.get(g.id) ?? g.name, isHead: g.isHead })),
    },
    'recertTicTitle',
  );
  const key = `recertification/${input.caseId}/tic.pdf`;
  await blobs.put(key, await renderLetterPdf(content), 'application/pdf');
  return { key };
}

/** Signers' names as the database has them now (the head's account, each adult member's record). */
async function signerNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const [users, members] = await Promise.all([
    db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', ids).execute(),
    db.selectFrom('household_members').select(['id', 'full_name']).where('id', 'in', ids).execute(),
  ]);
  return new Map([...users.map((u) => [u.id, `${u.first_name} ${u.last_name}`] as const), ...members.map((m) => [m.id, m.full_name] as const)]);
}

/**
 * Draws a signer's signature on the cycle's TIC (the copy signed by the others before), with name,
 * time and IP, and keeps the signed copy's SHA-256 with the case. The signed copy's key is fixed by
 * case and signer, so a retry rewrites the same file and row.
 */
export async function signRecertificationTic(
  db: Db,
  blobs: BlobStore,
  s: { caseId: string; letterKey: string; signatureKey: string; signerId: string; signerName: string; signedAt: string; ipAddress: string },
): Promise<{ key: string; sha256: string }> {
  const signedKey = `recertification/${s.caseId}/tic-signed-${s.signerId}.pdf`;
  const signed = await stampSignature(blobs, { letterKey: s.letterKey, signatureKey: s.signatureKey, signedKey, signerName: s.signerName, signedAt: s.signedAt, ipAddress: s.ipAddress });
  await recordSignedLetter(db, {
    signedKey,
    caseKind: 'recertification',
    caseId: s.caseId,
    letter: 'tic',
    letterKey: s.letterKey,
    sha256: signed.sha256,
    signerId: s.signerId,
    signedAt: s.signedAt,
  });
  return signed;
}
