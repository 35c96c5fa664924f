import type { Db } from '../database';

/** Keeps a signed copy's hash with its case (idempotent: a retried activity writes the same row). */
export async function recordSignedLetter(
  db: Db,
  row: { signedKey: string; caseKind: 'lease_up' | 'recertification'; caseId: string; letter: 'tic' | 'lease'; letterKey: string; sha256: string; signerId: string; signedAt: string },
): Promise<void> {
  await db
    .insertInto('signed_letters')
    .values({
      signed_key: row.signedKey,
      case_kind: row.caseKind,
      case_id: row.caseId,
      letter: row.letter,
      letter_key: row.letterKey,
      sha256: row.sha256,
      signer_id: row.signerId,
      signed_at: row.signedAt,
    })
    .onConflict((oc) => oc.column('signed_key').doUpdateSet({ sha256: row.sha256, letter_key: row.letterKey, signed_at: row.signedAt }))
    .execute();
}
